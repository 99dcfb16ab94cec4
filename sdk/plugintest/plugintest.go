// Package plugintest serves a plugin in-process over real gRPC, so plugin
// authors and mcptest's own core can test against real protobuf encoding and
// the real adapters without building a binary.
package plugintest

import (
	"context"
	"testing"

	"github.com/hashicorp/go-plugin"

	"github.com/mcptest/mcptest/sdk"
)

// Conn is a connection to an in-process plugin, holding the same host-side
// clients mcptest uses for a plugin process.
type Conn struct {
	Info     *sdk.InfoClient
	Matcher  *sdk.MatcherClient
	Reporter *sdk.ReporterClient
	Provider *sdk.ProviderClient
	Scorer   *sdk.ScorerClient
}

// New serves p over an in-memory gRPC connection and returns its clients;
// clients of kinds p does not serve are nil. If host is not nil it is
// offered to the plugin through Configure, as mcptest does. Everything is
// closed when the test ends.
func New(t testing.TB, p *sdk.Plugin, host sdk.Host) *Conn {
	t.Helper()
	client, _ := plugin.TestPluginGRPCConn(t, false, sdk.TestServerPluginSet(p))
	t.Cleanup(func() { _ = client.Close() })
	conn := &Conn{}
	dispense := func(kind string) any {
		raw, err := client.Dispense(kind)
		if err != nil {
			t.Fatalf("dispense %s: %v", kind, err)
		}
		return raw
	}
	conn.Info = dispense(sdk.KindInfo).(*sdk.InfoClient)
	d := p.Describe()
	for _, c := range d.Components {
		switch c.Kind {
		case sdk.KindMatcher:
			conn.Matcher = dispense(c.Kind).(*sdk.MatcherClient)
		case sdk.KindReporter:
			conn.Reporter = dispense(c.Kind).(*sdk.ReporterClient)
		case sdk.KindProvider:
			conn.Provider = dispense(c.Kind).(*sdk.ProviderClient)
		case sdk.KindScorer:
			conn.Scorer = dispense(c.Kind).(*sdk.ScorerClient)
		}
	}
	if err := conn.Info.Configure(context.Background(), host, []byte(`{}`)); err != nil {
		t.Fatalf("configure: %v", err)
	}
	return conn
}
