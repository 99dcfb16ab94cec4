package pluginrpc

import (
	"google.golang.org/grpc"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// registerKinds registers on s the info service and the service of each
// kind the plugin fills in. The host's side, which builds the clients, is
// in hostrpc, so a plugin binary carries none of the host's code.
func registerKinds(s *grpc.Server, srv *pluginServer) {
	pluginv1.RegisterInfoServer(s, &infoServer{srv: srv})
	p := srv.plugin
	if len(p.Matchers) > 0 {
		pluginv1.RegisterMatcherServer(s, &matcherServer{srv: srv})
	}
	if len(p.Reporters) > 0 {
		pluginv1.RegisterReporterServer(s, &reporterServer{srv: srv})
	}
	if len(p.Providers) > 0 {
		pluginv1.RegisterProviderServer(s, &providerServer{srv: srv})
	}
	if len(p.Scorers) > 0 {
		pluginv1.RegisterScorerServer(s, &scorerServer{srv: srv})
	}
}
