// Command legacyserve is a matcher plugin served the way every plugin
// built with an SDK before pluginrpc had its own server was: through
// go-plugin's plugin.Serve, with go-plugin's stdio forwarding, broker,
// controller and reflection services, and an older protocol minor (one
// message per match item). It checks that mcptest's host still runs such
// plugins. Its "legacy-eq" matcher passes when the actual value is, byte
// for byte, its argument, and prints each verdict to stdout (forwarded by
// go-plugin's stdio stream).
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

const description = `{"name":"legacyserve","version":"0.9.0","protocol_versions":[1],"components":[{"kind":"matcher","keys":["legacy-eq"]}]}`

type info struct {
	pluginv1.UnimplementedInfoServer
}

func (info) Describe(context.Context, *pluginv1.DescribeRequest) (*pluginv1.DescribeResponse, error) {
	return &pluginv1.DescribeResponse{Name: "legacyserve", Version: "0.9.0", ProtocolVersion: 1,
		Components: []*pluginv1.Component{{Kind: "matcher", Keys: []string{"legacy-eq"}}}}, nil
}

func (info) Configure(context.Context, *pluginv1.ConfigureRequest) (*pluginv1.ConfigureResponse, error) {
	return &pluginv1.ConfigureResponse{}, nil
}

type matcher struct {
	pluginv1.UnimplementedMatcherServer
}

func (matcher) Check(_ context.Context, req *pluginv1.CheckRequest) (*pluginv1.CheckResponse, error) {
	resp := &pluginv1.CheckResponse{}
	for _, it := range req.GetItems() {
		resp.Results = append(resp.Results, &pluginv1.CheckResult{Id: it.GetId()})
	}
	return resp, nil
}

func (matcher) Match(_ context.Context, req *pluginv1.MatchRequest) (*pluginv1.MatchResponse, error) {
	resp := &pluginv1.MatchResponse{}
	for _, it := range req.GetItems() {
		pass := bytes.Equal(bytes.TrimSpace(it.GetActualJson()), bytes.TrimSpace(it.GetArgumentJson()))
		r := &pluginv1.MatchResult{Id: it.GetId(), Pass: pass}
		if !pass {
			r.FailureJson = fmt.Appendf(nil, `{"expected":%s,"actual":%s,"note":"legacy-eq: not the same bytes"}`, it.GetArgumentJson(), it.GetActualJson())
		}
		fmt.Printf("legacyserve: item %d pass=%v\n", it.GetId(), pass)
		resp.Results = append(resp.Results, r)
	}
	return resp, nil
}

// services registers both services for each of go-plugin's plugin names.
type services struct{ plugin.NetRPCUnsupportedPlugin }

func (services) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if s.GetServiceInfo()[pluginv1.Info_ServiceDesc.ServiceName].Methods == nil {
		pluginv1.RegisterInfoServer(s, info{})
		pluginv1.RegisterMatcherServer(s, matcher{})
	}
	return nil
}

func (services) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, fmt.Errorf("no client")
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "describe" {
		os.Stdout.WriteString(description + "\n")
		return
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: hostrpc.Handshake(),
		Plugins:         plugin.PluginSet{"info": services{}, "matcher": services{}},
		GRPCServer:      plugin.DefaultGRPCServer,
	})
}
