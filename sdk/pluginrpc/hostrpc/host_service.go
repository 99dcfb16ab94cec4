package hostrpc

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk/contract"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// hostGRPCServer serves a host's Host implementation to a plugin.
type hostGRPCServer struct {
	pluginv1.UnimplementedHostServer
	host contract.Host
}

func (s *hostGRPCServer) Complete(ctx context.Context, req *pluginv1.CompleteRequest) (*pluginv1.CompleteResponse, error) {
	var cr contract.ChatRequest
	if err := json.Unmarshal(req.GetRequestJson(), &cr); err != nil {
		return nil, fmt.Errorf("decode chat request: %w", err)
	}
	resp, err := s.host.Complete(ctx, req.GetKey(), cr)
	if err != nil {
		return nil, pluginrpc.HostErrorToStatus(err)
	}
	return pluginrpc.CompleteResponseToProto(resp)
}

func (s *hostGRPCServer) Embed(ctx context.Context, req *pluginv1.EmbedRequest) (*pluginv1.EmbedResponse, error) {
	resp, err := s.host.Embed(ctx, req.GetKey(), contract.EmbedRequest{Model: req.GetModel(), Inputs: req.GetInputs()})
	if err != nil {
		return nil, pluginrpc.HostErrorToStatus(err)
	}
	return pluginrpc.EmbedResponseToProto(resp), nil
}
