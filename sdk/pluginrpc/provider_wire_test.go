package pluginrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
)

// echoProvider answers with what reached it: the endpoint and the request.
type echoProvider struct{}

func (echoProvider) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	ep, ok := sdk.EndpointFrom(ctx)
	b, _ := json.Marshal(req)
	return sdk.ChatResponse{
		Message:    sdk.Message{Role: "assistant", Content: fmt.Sprintf("%v|%s|%s|%s", ok, ep.BaseURL, ep.APIKey, b)},
		StopReason: sdk.StopEndTurn, Model: "m-1",
		Usage: sdk.Usage{InputTokens: 3, OutputTokens: 4, TotalTokens: 9},
	}, nil
}

func (echoProvider) Embed(ctx context.Context, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	ep, _ := sdk.EndpointFrom(ctx)
	return sdk.EmbedResponse{Vectors: [][]float32{{float32(len(ep.APIKey))}}}, nil
}

// The endpoint travels beside the request (never inside its JSON), the
// tool-result fields and the vendor's total survive the wire, and the
// price table reaches Describe.
func TestProviderWireCarriesEndpointPartsTotalAndPrices(t *testing.T) {
	p := &sdk.Plugin{Name: "echo", Version: "1.0.0", Providers: map[string]sdk.Provider{"echo": echoProvider{}},
		Prices: []sdk.ModelPrice{{Model: "m-*", InputPerMTok: 1, OutputPerMTok: 2}}}
	conn := plugintest.New(t, p, nil)
	ctx := context.Background()
	ep := sdk.Endpoint{BaseURL: "http://127.0.0.1:1/v1", APIKey: "sk-secret-value", KeyEnv: "X_KEY"}
	req := sdk.ChatRequest{Model: "m-1", Messages: []sdk.Message{{Role: "tool", ToolCallID: "c1", ToolName: "t", IsError: true,
		Parts: []sdk.Part{{Type: sdk.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="}, {Type: sdk.PartJSON, JSON: json.RawMessage(`{"a":1}`)}}}}}
	r, err := conn.Provider.CompleteAt(ctx, "echo", ep, req)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(r.Message.Content, "|", 4)
	if parts[0] != "true" || parts[1] != ep.BaseURL || parts[2] != ep.APIKey {
		t.Fatalf("endpoint at the plugin = %q", parts[:3])
	}
	var got sdk.ChatRequest
	if err := json.Unmarshal([]byte(parts[3]), &got); err != nil {
		t.Fatal(err)
	}
	if m := got.Messages[0]; !m.IsError || m.ToolName != "t" || len(m.Parts) != 2 || m.Parts[0].Data != "iVBORw0KGgo=" || string(m.Parts[1].JSON) != `{"a":1}` {
		t.Fatalf("message at the plugin = %+v", m)
	}
	if strings.Contains(parts[3], "sk-secret-value") {
		t.Fatal("the key travelled inside the request JSON")
	}
	if r.Usage.TotalTokens != 9 || r.Usage.Total() != 9 || r.Model != "m-1" {
		t.Fatalf("response = %+v", r)
	}
	// No endpoint: the provider is told so.
	r, _ = conn.Provider.Complete(ctx, "echo", req)
	if !strings.HasPrefix(r.Message.Content, "false||") {
		t.Fatalf("no endpoint reached the plugin as %q", r.Message.Content[:20])
	}
	e, err := conn.Provider.EmbedAt(ctx, "echo", ep, sdk.EmbedRequest{Model: "m", Inputs: []string{"x"}})
	if err != nil || e.Vectors[0][0] != float32(len(ep.APIKey)) {
		t.Fatalf("embed endpoint: %+v, %v", e, err)
	}
	d, err := conn.Info.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	price, ok := sdk.LookupPrice(d.Prices, "m-1")
	if !ok || price.Cost(sdk.Usage{InputTokens: 1e6, OutputTokens: 1e6}) != 3 {
		t.Fatalf("prices over Describe = %+v", d.Prices)
	}
	if s := fmt.Sprintf("%v %+v %#v", ep, ep, ep); strings.Contains(s, "sk-secret") {
		t.Fatalf("formatting an endpoint shows its key: %s", s)
	}
}

func TestLookupPricePrefersExactThenLongestPrefix(t *testing.T) {
	table := []sdk.ModelPrice{{Model: "gpt-*", InputPerMTok: 1}, {Model: "gpt-4o*", InputPerMTok: 2}, {Model: "gpt-4o-mini", InputPerMTok: 3}}
	for model, want := range map[string]float64{"gpt-4o-mini": 3, "gpt-4o-2024": 2, "gpt-5": 1} {
		if p, ok := sdk.LookupPrice(table, model); !ok || p.InputPerMTok != want {
			t.Errorf("%s: %+v %v, want %v", model, p, ok, want)
		}
	}
	if _, ok := sdk.LookupPrice(table, "claude-x"); ok {
		t.Error("an unknown model has a price")
	}
}

// keylessHost refuses every model call for want of a key.
type keylessHost struct{}

func (keylessHost) Complete(context.Context, string, sdk.ChatRequest) (sdk.ChatResponse, error) {
	return sdk.ChatResponse{}, fmt.Errorf("model %q has no key: set X_KEY: %w", "m", sdk.ErrNoModelKey)
}

func (keylessHost) Embed(context.Context, string, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{}, fmt.Errorf("no key: %w", sdk.ErrNoModelKey)
}

// A plugin asking the host for a model without a key can tell that apart
// from a failure (errors.Is ErrNoModelKey) and read the variable's name.
func TestHostNoKeyReachesThePlugin(t *testing.T) {
	judge := sdk.MatcherFunc(func(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		_, err := in.Host.Complete(ctx, "", sdk.ChatRequest{Model: "m"})
		_, eerr := in.Host.Embed(ctx, "", sdk.EmbedRequest{Model: "m"})
		return sdk.Fail(sdk.Failure{Note: fmt.Sprintf("%v|%v|%v", errors.Is(err, sdk.ErrNoModelKey), errors.Is(eerr, sdk.ErrNoModelKey), err)}), nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "judge", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"judge": judge}}, keylessHost{})
	res, err := conn.Matcher.Match(context.Background(), []pluginrpc.MatchItem{{ID: 1, Key: "judge", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Note string `json:"note"`
	}
	_ = json.Unmarshal(res[0].Failure, &f)
	if !strings.HasPrefix(f.Note, "true|true|") || !strings.Contains(f.Note, "set X_KEY") {
		t.Fatalf("failure = %s", res[0].Failure)
	}
}

// A matcher whose model has no key reports its item deferred, not failed
// and not errored, over both encodings of a batch: by returning the Host's
// error as it is, or a Defer result. The reason keeps the variable's name,
// and an Eval travels beside a verdict.
func TestDeferredAndEvalCrossTheMatchRPC(t *testing.T) {
	m := sdk.MatcherFunc(func(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		switch string(in.Argument) {
		case `"error"`:
			_, err := in.Host.Complete(ctx, "", sdk.ChatRequest{Model: "m"})
			return sdk.MatchResult{}, fmt.Errorf("llm-judge: %w", err)
		case `"defer"`:
			return sdk.Defer("set Y_KEY"), nil
		}
		s := 0.9
		return sdk.MatchResult{Pass: true, Score: &s, Eval: &report.Eval{Form: "text", Candidate: "value", Score: s, Threshold: 0.7, Passed: true, Reason: "fine"}}, nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "judge", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"k": m}}, keylessHost{})
	items := []pluginrpc.MatchItem{
		{ID: 1, Key: "k", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`"error"`)},
		{ID: 2, Key: "k", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`"defer"`)},
		{ID: 3, Key: "k", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`"pass"`)},
	}
	for _, packed := range []bool{false, true} {
		conn.Matcher.UsePacked(packed)
		res, err := conn.Matcher.Match(context.Background(), items)
		if err != nil {
			t.Fatal(err)
		}
		if r := res[0]; r.Pass || r.Error != "" || !strings.Contains(r.Deferred, "set X_KEY") {
			t.Errorf("packed=%v: a Host error for want of a key: %+v", packed, r)
		}
		if r := res[1]; r.Pass || r.Error != "" || r.Deferred != "set Y_KEY" {
			t.Errorf("packed=%v: a Defer result: %+v", packed, r)
		}
		var ev report.Eval
		if r := res[2]; !r.Pass || r.Deferred != "" || json.Unmarshal(r.Eval, &ev) != nil || ev.Reason != "fine" || ev.Score != 0.9 {
			t.Errorf("packed=%v: a verdict with its eval: %+v (%s)", packed, r, r.Eval)
		}
	}
}

// refusingHost refuses every model call with an error of its own.
type refusingHost struct{}

func (refusingHost) Complete(context.Context, string, sdk.ChatRequest) (sdk.ChatResponse, error) {
	return sdk.ChatResponse{}, errors.New("the --max-cost budget would be exceeded")
}

func (refusingHost) Embed(context.Context, string, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{}, fmt.Errorf("the embedding could cost too much: %w", sdk.ErrCostCap)
}

// A host's own error reaches the plugin in the host's words, without
// gRPC's status wording in front, and a budget refusal still matches
// ErrCostCap on the plugin's side.
func TestHostErrorReachesThePluginWorded(t *testing.T) {
	judge := sdk.MatcherFunc(func(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		_, err := in.Host.Complete(ctx, "", sdk.ChatRequest{Model: "m"})
		_, eerr := in.Host.Embed(ctx, "", sdk.EmbedRequest{Model: "m"})
		return sdk.Fail(sdk.Failure{Note: fmt.Sprintf("%v|%v|%v|%v", err, eerr, errors.Is(err, sdk.ErrCostCap), errors.Is(eerr, sdk.ErrCostCap))}), nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "judge", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"judge": judge}}, refusingHost{})
	res, err := conn.Matcher.Match(context.Background(), []pluginrpc.MatchItem{{ID: 1, Key: "judge", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Note string `json:"note"`
	}
	_ = json.Unmarshal(res[0].Failure, &f)
	if want := "host complete: the --max-cost budget would be exceeded|host embed: the embedding could cost too much: refused under the --max-cost budget|false|true"; f.Note != want {
		t.Fatalf("note = %q, want %q", f.Note, want)
	}
}
