package hostrpc

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/sdk/contract"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// InfoClient is the host-side client of a plugin's Info service.
type InfoClient struct {
	clientBase
	c      pluginv1.InfoClient
	broker *plugin.GRPCBroker
}

// Describe asks the plugin to describe itself.
func (c *InfoClient) Describe(ctx context.Context) (contract.Description, error) {
	resp, err := c.c.Describe(ctx, &pluginv1.DescribeRequest{})
	if err != nil {
		return contract.Description{}, c.wrap("describe", err)
	}
	return pluginrpc.DescriptionFromProto(resp), nil
}

// Configure hands the plugin its run context. When host is not nil it is
// served to the plugin over the go-plugin broker, so the plugin's Host
// calls reach it.
func (c *InfoClient) Configure(ctx context.Context, host contract.Host, runJSON []byte) error {
	req := &pluginv1.ConfigureRequest{RunJson: runJSON}
	if host != nil {
		if c.broker == nil {
			return fmt.Errorf("configure: no broker to serve the host on")
		}
		id := c.broker.NextId()
		go c.broker.AcceptAndServe(id, func(opts []grpc.ServerOption) *grpc.Server {
			s := grpc.NewServer(append(opts, pluginrpc.ServerOptions()...)...)
			pluginv1.RegisterHostServer(s, &hostGRPCServer{host: host})
			return s
		})
		req.HostBrokerId = id
	}
	_, err := c.c.Configure(ctx, req)
	return c.wrap("configure", err)
}
