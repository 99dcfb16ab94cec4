package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
)

// hostProbe is a matcher that reports, as its failure note, what its Host
// call gave: "served" when the host answered, the error otherwise.
var hostProbe = sdk.MatcherFunc(func(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	_, err := in.Host.Complete(ctx, "fake", sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "hi"}}})
	switch {
	case err == nil:
		return sdk.Fail(sdk.Failure{Note: "served"}), nil
	case errors.Is(err, sdk.ErrNoHost):
		return sdk.Fail(sdk.Failure{Note: "no host"}), nil
	}
	return sdk.MatchResult{}, err
})

func hostProbeNote(t *testing.T, caps []string) string {
	t.Helper()
	p := &sdk.Plugin{Name: "probe", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"probe": hostProbe}, Capabilities: caps}
	h, _ := newTestHost(t, plugin.HostOptions{Services: hostServices{}}, p)
	out := h.Match(context.Background(), []plugin.MatchRequest{{Plugin: foundFor(p), Key: "probe", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})
	if out[0].Err != nil {
		t.Fatalf("probe match: %v", out[0].Err)
	}
	if out[0].Failure == nil {
		t.Fatalf("probe passed: %+v", out[0])
	}
	var f struct{ Note string }
	if err := json.Unmarshal(out[0].Failure, &f); err != nil {
		t.Fatalf("probe failure %s: %v", out[0].Failure, err)
	}
	return f.Note
}

// A plugin that declares no-host is not served the Host (its calls get
// ErrNoHost), while one that declares nothing still is: plugins built
// before the capability keep their model calls.
func TestHostServiceOfferedOnlyToPluginsThatMayUseIt(t *testing.T) {
	if got := hostProbeNote(t, nil); got != "served" {
		t.Errorf("plugin declaring nothing: Host call gave %q, want served", got)
	}
	if got := hostProbeNote(t, []string{sdk.CapabilityVetPure, sdk.CapabilityNoHost}); !strings.Contains(got, "no host") {
		t.Errorf("plugin declaring %s: Host call gave %q, want ErrNoHost", sdk.CapabilityNoHost, got)
	}
}
