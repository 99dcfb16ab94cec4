package sdk

import (
	"context"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

// ServeInProcess serves p inside the calling process the way Serve does in
// a plugin binary (same gRPC options, same services), for tests. The
// reattach configuration arrives on reattach once the server listens;
// closed is closed when the server stops after ctx ends. sdk/plugintest
// wraps it.
func ServeInProcess(ctx context.Context, p *Plugin, reattach chan<- *plugin.ReattachConfig, closed chan<- struct{}) {
	logger := hclog.NewNullLogger()
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		VersionedPlugins: map[int]plugin.PluginSet{
			ProtocolVersion: serverPluginSet(newPluginServer(p, logger)),
		},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, serverOptions()...)...)
		},
		Logger: logger,
		Test:   &plugin.ServeTestConfig{Context: ctx, ReattachConfigCh: reattach, CloseCh: closed},
	})
}
