package pluginrpc

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// gplugin is the go-plugin glue for one kind. On the plugin side it registers
// the kind's gRPC service; on the host side it builds the kind's client.
type gplugin struct {
	plugin.NetRPCUnsupportedPlugin
	kind   string
	server *pluginServer // nil on the host side
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

// GRPCClient builds the host-side client of the kind. doneCtx ends when the
// plugin process exits, which is how clients tell a crash from an error.
func (g *gplugin) GRPCClient(doneCtx context.Context, broker *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	base := clientBase{done: doneCtx}
	switch g.kind {
	case KindInfo:
		return &InfoClient{clientBase: base, c: pluginv1.NewInfoClient(c), broker: broker}, nil
	case contract.KindMatcher:
		return &MatcherClient{clientBase: base, c: pluginv1.NewMatcherClient(c)}, nil
	case contract.KindReporter:
		return &ReporterClient{clientBase: base, c: pluginv1.NewReporterClient(c)}, nil
	case contract.KindProvider:
		return &ProviderClient{clientBase: base, c: pluginv1.NewProviderClient(c)}, nil
	case contract.KindScorer:
		return &ScorerClient{clientBase: base, c: pluginv1.NewScorerClient(c)}, nil
	}
	return nil, nil
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

// ClientPluginSet is the plugin set the host uses to talk to any plugin.
// Dispense returns *InfoClient for "info", *MatcherClient for "matcher",
// *ReporterClient, *ProviderClient and *ScorerClient for the other kinds.
func ClientPluginSet() plugin.PluginSet {
	set := plugin.PluginSet{KindInfo: &gplugin{kind: KindInfo}}
	for _, k := range contract.Kinds {
		set[k] = &gplugin{kind: k}
	}
	return set
}
