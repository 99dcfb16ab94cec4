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

// clientPlugin is the go-plugin glue for one kind on the host side: it
// builds the kind's client. Plugins use pluginrpc's own glue, so their
// binaries carry none of the host's clients.
type clientPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	kind string
}

// GRPCServer refuses: the host serves no plugin kinds.
func (g *clientPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return fmt.Errorf("the host does not serve the %s plugin kind", g.kind)
}

// GRPCClient builds the host-side client of the kind. doneCtx ends when the
// plugin process exits, which is how clients tell a crash from an error.
func (g *clientPlugin) GRPCClient(doneCtx context.Context, broker *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	base := clientBase{done: doneCtx}
	switch g.kind {
	case pluginrpc.KindInfo:
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

// ClientPluginSet is the plugin set the host uses to talk to any plugin.
// Dispense returns *InfoClient for "info", *MatcherClient for "matcher",
// *ReporterClient, *ProviderClient and *ScorerClient for the other kinds.
func ClientPluginSet() plugin.PluginSet {
	set := plugin.PluginSet{pluginrpc.KindInfo: &clientPlugin{kind: pluginrpc.KindInfo}}
	for _, k := range contract.Kinds {
		set[k] = &clientPlugin{kind: k}
	}
	return set
}

// GRPCDialOptions are the dial options the host must use so large messages
// pass in both directions, encoded by the SDK's codec (the same protobuf
// bytes as gRPC's, in pooled buffers), over the SDK's transport settings.
func GRPCDialOptions() []grpc.DialOption {
	return append(pluginrpc.TransportDialOptions(), grpc.WithDefaultCallOptions(
		grpc.MaxCallRecvMsgSize(contract.MaxMessageBytes),
		grpc.MaxCallSendMsgSize(contract.MaxMessageBytes),
		pluginrpc.ClientCodec(),
	))
}

// Handshake is pluginrpc.Handshake as go-plugin's client takes it.
func Handshake() plugin.HandshakeConfig {
	h := pluginrpc.Handshake
	return plugin.HandshakeConfig{ProtocolVersion: h.ProtocolVersion, MagicCookieKey: h.MagicCookieKey, MagicCookieValue: h.MagicCookieValue}
}
