package pluginrpc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/sdk/contract"
)

// Serve serves p until the host stops it; sdk.Serve calls it after
// validating p and preparing the runtime. It speaks go-plugin's gRPC
// protocol (gpserver.go) without linking go-plugin.
func Serve(p *contract.Plugin, logger hclog.Logger) {
	if err := serveProcess(p, logger); err != nil {
		if !errors.Is(err, errNotFromHost) {
			// Started by a host: its log reads the structured line.
			logger.Error("plugin init error", "error", err)
		}
		fmt.Fprintf(os.Stderr, "mcptest plugin: %v\n", err)
		os.Exit(1)
	}
}

// ServeInProcess serves p inside the calling process the way Serve does in
// a plugin binary (same gRPC options, same services), for tests. The
// address the server listens on arrives on addr once it listens; closed is
// closed when the server has stopped after ctx ends. sdk/plugintest wraps
// it.
func ServeInProcess(ctx context.Context, p *contract.Plugin, addr chan<- net.Addr, closed chan<- struct{}) {
	defer close(closed)
	lis, err := listen()
	if err != nil {
		hclog.Default().Error("plugin init error", "error", err)
		return
	}
	s := newServer(p, hclog.NewNullLogger())
	addr <- lis.Addr()
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = s.Serve(lis)
	}()
	select {
	case <-ctx.Done():
		s.Stop()
	case <-served:
	}
	<-served
}

// newServer is the gRPC server of a plugin: the SDK's server options, the
// services go-plugin's client expects of any plugin (gpservices.go), the
// info service and one service per kind p serves.
func newServer(p *contract.Plugin, logger hclog.Logger) *grpc.Server {
	s := grpc.NewServer(ServerOptions()...)
	srv := newPluginServer(p, logger)
	registerGoPluginServices(s, srv)
	registerKinds(s, srv)
	return s
}
