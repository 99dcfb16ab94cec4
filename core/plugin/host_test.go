package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
)

// countingMatcher passes when actual equals the argument and counts calls.
type countingMatcher struct{ items atomic.Int64 }

func (c *countingMatcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	c.items.Add(1)
	switch string(in.Argument) {
	case `"panic"`:
		panic("boom on purpose")
	case `"error"`:
		return sdk.MatchResult{}, errors.New("cannot evaluate")
	case `"bad"`:
		return sdk.MatchResult{}, sdk.InvalidArgument("bad argument")
	}
	if string(in.Actual) == string(in.Argument) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{Expected: in.Argument, Actual: in.Actual, Note: "differs"}), nil
}

func (c *countingMatcher) CheckArgument(_ string, arg json.RawMessage) error {
	if string(arg) == `"reject"` {
		return errors.New("rejected on purpose")
	}
	return nil
}

func newTestHost(t *testing.T, opts plugin.HostOptions, plugins ...*sdk.Plugin) (*plugin.Host, *inproc.Launcher) {
	l := inproc.New(plugins...)
	h := plugin.NewHost(l, opts)
	t.Cleanup(func() { h.Close(); l.Close() })
	return h, l
}

// foundFor builds the plugin.Found a manifest for p would produce.
var foundFor = inproc.Found

func TestHostMatchBatchesAndKeepsOrder(t *testing.T) {
	m := &countingMatcher{}
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": m}}
	h, l := newTestHost(t, plugin.HostOptions{MaxBatchItems: 7}, p)
	f := foundFor(p)
	var reqs []plugin.MatchRequest
	for i := range 50 {
		actual := fmt.Sprintf("%d", i)
		arg := actual
		if i%5 == 0 {
			arg = `"other"`
		}
		reqs = append(reqs, plugin.MatchRequest{Plugin: f, Key: "eq", Actual: json.RawMessage(actual), Argument: json.RawMessage(arg)})
	}
	out := h.Match(context.Background(), reqs)
	if len(out) != 50 {
		t.Fatalf("got %d outcomes", len(out))
	}
	for i, o := range out {
		if o.Err != nil {
			t.Fatalf("item %d errored: %v", i, o.Err)
		}
		if want := i%5 != 0; o.Pass != want {
			t.Errorf("item %d: pass=%v, want %v", i, o.Pass, want)
		}
		if !o.Pass && !strings.Contains(string(o.Failure), `"note":"differs"`) {
			t.Errorf("item %d: failure %s", i, o.Failure)
		}
		if o.Plugin != "eq@1.0.0" {
			t.Errorf("plugin label %q", o.Plugin)
		}
	}
	if got := m.items.Load(); got != 50 {
		t.Errorf("matcher saw %d items, want 50", got)
	}
	if n := l.Starts("eq"); n != 1 {
		t.Errorf("plugin started %d times, want once", n)
	}
}

func TestHostPanicAndErrorsAffectOnlyTheirItems(t *testing.T) {
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &countingMatcher{}}}
	h, _ := newTestHost(t, plugin.HostOptions{}, p)
	f := foundFor(p)
	reqs := []plugin.MatchRequest{
		{Plugin: f, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)},
		{Plugin: f, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`"panic"`)},
		{Plugin: f, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`"error"`)},
		{Plugin: f, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`"bad"`)},
		{Plugin: f, Key: "eq", Actual: json.RawMessage(`2`), Argument: json.RawMessage(`2`)},
	}
	out := h.Match(context.Background(), reqs)
	if !out[0].Pass || out[0].Err != nil || !out[4].Pass || out[4].Err != nil {
		t.Fatalf("healthy items were affected: %+v %+v", out[0], out[4])
	}
	if out[1].Err == nil || out[1].ErrorKind != pluginrpc.ErrorKindPanic || !strings.Contains(out[1].Err.Error(), "boom on purpose") {
		t.Errorf("panic item: %+v", out[1])
	}
	if out[2].Err == nil || out[2].ErrorKind != pluginrpc.ErrorKindInternal {
		t.Errorf("error item: %+v", out[2])
	}
	if out[3].Err == nil || out[3].ErrorKind != pluginrpc.ErrorKindInvalidArgument {
		t.Errorf("invalid-argument item: %+v", out[3])
	}
	// The plugin survived the panic.
	again := h.Match(context.Background(), reqs[:1])
	if !again[0].Pass {
		t.Fatalf("plugin unusable after a panic: %+v", again[0])
	}
}

func TestHostCheckArguments(t *testing.T) {
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &countingMatcher{}}}
	h, _ := newTestHost(t, plugin.HostOptions{}, p)
	f := foundFor(p)
	errs := h.Check(context.Background(), []plugin.CheckRequest{
		{Plugin: f, Key: "eq", Argument: json.RawMessage(`"fine"`)},
		{Plugin: f, Key: "eq", Argument: json.RawMessage(`"reject"`)},
		{Plugin: f, Key: "nope", Argument: json.RawMessage(`1`)},
	})
	if errs[0] != nil {
		t.Errorf("fine argument rejected: %v", errs[0])
	}
	if errs[1] == nil || !strings.Contains(errs[1].Error(), "rejected on purpose") {
		t.Errorf("reject: %v", errs[1])
	}
	if errs[2] == nil || !strings.Contains(errs[2].Error(), `no matcher "nope"`) {
		t.Errorf("unknown key: %v", errs[2])
	}
}

func TestHostRefusesPluginThatDisagreesWithManifest(t *testing.T) {
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &countingMatcher{}}}
	h, _ := newTestHost(t, plugin.HostOptions{}, p)
	f := foundFor(p)
	f.Manifest.Version = "2.0.0"
	out := h.Match(context.Background(), []plugin.MatchRequest{{Plugin: f, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})
	if !errors.Is(out[0].Err, plugin.ErrDescribeMismatch) {
		t.Fatalf("want plugin.ErrDescribeMismatch, got %v", out[0].Err)
	}
	if !strings.Contains(out[0].Err.Error(), "eq@1.0.0") || !strings.Contains(out[0].Err.Error(), "eq@2.0.0") {
		t.Errorf("message should name both versions: %v", out[0].Err)
	}
}

// hostServices answers model calls for the plugin.Host-service test.
type hostServices struct{}

func (hostServices) Complete(_ context.Context, provider string, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: provider + ":" + req.Messages[0].Content}}, nil
}

func (hostServices) Embed(context.Context, string, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{Vectors: [][]float32{{1, 2}}}, nil
}

func TestPluginsReachHostServicesOverTheBroker(t *testing.T) {
	judge := sdk.MatcherFunc(func(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		resp, err := in.Host.Complete(ctx, "fake", sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "hi"}}})
		if err != nil {
			return sdk.MatchResult{}, err
		}
		if resp.Message.Content != "fake:hi" {
			return sdk.Fail(sdk.Failure{Note: resp.Message.Content}), nil
		}
		return sdk.Pass(), nil
	})
	p := &sdk.Plugin{Name: "judge", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"judge": judge}}
	h, _ := newTestHost(t, plugin.HostOptions{Services: hostServices{}}, p)
	out := h.Match(context.Background(), []plugin.MatchRequest{{Plugin: foundFor(p), Key: "judge", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})
	if out[0].Err != nil || !out[0].Pass {
		t.Fatalf("host call through the broker failed: %+v", out[0])
	}
}
