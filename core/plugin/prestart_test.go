package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
)

// Prestart starts a plugin without waiting; the first call waits for that
// start rather than starting it again, and a second Prestart is a no-op.
func TestPrestartIsTheStartTheFirstCallUses(t *testing.T) {
	m := &countingMatcher{}
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": m}}
	h, l := newTestHost(t, plugin.HostOptions{}, p)
	f := foundFor(p)
	h.Prestart([]*plugin.Found{f})
	h.Prestart([]*plugin.Found{f})
	out := h.Match(context.Background(), []plugin.MatchRequest{{Plugin: f, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})
	if out[0].Err != nil || !out[0].Pass {
		t.Fatalf("outcome %+v", out[0])
	}
	if n := l.Starts("eq"); n != 1 {
		t.Errorf("%d starts, want 1", n)
	}
}

// A plugin that fails its start in the background fails the calls that
// need it with the start's plugin error, which names the plugin.
func TestPrestartFailureIsTheCallsError(t *testing.T) {
	h, _ := newTestHost(t, plugin.HostOptions{})
	f := foundFor(&sdk.Plugin{Name: "missing", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"m": &countingMatcher{}}})
	h.Prestart([]*plugin.Found{f})
	out := h.Match(context.Background(), []plugin.MatchRequest{{Plugin: f, Key: "m", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})
	var pe *plugin.PluginError
	if !errors.As(out[0].Err, &pe) || pe.Plugin != "missing" || !errors.Is(out[0].Err, plugin.ErrPluginStart) {
		t.Fatalf("outcome error %v, want the plugin's start failure", out[0].Err)
	}
}
