package pluginrpc

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// gplugin is the plugin side's go-plugin glue for one kind: it registers
// the kind's gRPC service. The host's glue, which builds the clients, is in
// hostrpc, so a plugin binary carries none of the host's code.
type gplugin struct {
	plugin.NetRPCUnsupportedPlugin
	kind   string
	server *pluginServer
}

// GRPCServer registers the kind's service on the plugin's gRPC server.
func (g *gplugin) GRPCServer(broker *plugin.GRPCBroker, s *grpc.Server) error {
	g.server.setBroker(broker)
	switch g.kind {
	case KindInfo:
		pluginv1.RegisterInfoServer(s, &infoServer{srv: g.server})
	case contract.KindMatcher:
		pluginv1.RegisterMatcherServer(s, &matcherServer{srv: g.server})
	case contract.KindReporter:
		pluginv1.RegisterReporterServer(s, &reporterServer{srv: g.server})
	case contract.KindProvider:
		pluginv1.RegisterProviderServer(s, &providerServer{srv: g.server})
	case contract.KindScorer:
		pluginv1.RegisterScorerServer(s, &scorerServer{srv: g.server})
	}
	return nil
}

// GRPCClient refuses: a plugin dispenses no clients of its own kinds.
func (g *gplugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, fmt.Errorf("a plugin builds no client of the %s kind", g.kind)
}

// serverPluginSet is the plugin set Serve registers: the info service plus
// one service per kind the plugin fills in.
func serverPluginSet(srv *pluginServer) plugin.PluginSet {
	set := plugin.PluginSet{KindInfo: &gplugin{kind: KindInfo, server: srv}}
	p := srv.plugin
	if len(p.Matchers) > 0 {
		set[contract.KindMatcher] = &gplugin{kind: contract.KindMatcher, server: srv}
	}
	if len(p.Reporters) > 0 {
		set[contract.KindReporter] = &gplugin{kind: contract.KindReporter, server: srv}
	}
	if len(p.Providers) > 0 {
		set[contract.KindProvider] = &gplugin{kind: contract.KindProvider, server: srv}
	}
	if len(p.Scorers) > 0 {
		set[contract.KindScorer] = &gplugin{kind: contract.KindScorer, server: srv}
	}
	return set
}
