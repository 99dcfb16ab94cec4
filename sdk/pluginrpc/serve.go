package pluginrpc

import (
	"context"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/sdk/contract"
)

// Serve serves p over go-plugin until the host disconnects; sdk.Serve
// calls it after validating p and preparing the runtime.
func Serve(p *contract.Plugin, logger hclog.Logger) {
	plugin.Serve(serveConfig(p, logger))
}

// ServeInProcess serves p inside the calling process the way Serve does in
// a plugin binary (same gRPC options, same services), for tests. The
// reattach configuration arrives on reattach once the server listens;
// closed is closed when the server stops after ctx ends. sdk/plugintest
// wraps it.
func ServeInProcess(ctx context.Context, p *contract.Plugin, reattach chan<- *plugin.ReattachConfig, closed chan<- struct{}) {
	cfg := serveConfig(p, hclog.NewNullLogger())
	cfg.Test = &plugin.ServeTestConfig{Context: ctx, ReattachConfigCh: reattach, CloseCh: closed}
	plugin.Serve(cfg)
}

// serveConfig is the go-plugin configuration of a plugin: the handshake,
// the info service and one service per kind p serves, and the SDK's gRPC
// server options.
func serveConfig(p *contract.Plugin, logger hclog.Logger) *plugin.ServeConfig {
	return &plugin.ServeConfig{
		HandshakeConfig: Handshake,
		VersionedPlugins: map[int]plugin.PluginSet{
			contract.ProtocolVersion: serverPluginSet(newPluginServer(p, logger)),
		},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, ServerOptions()...)...)
		},
		Logger: logger,
	}
}
