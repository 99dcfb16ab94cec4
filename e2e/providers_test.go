package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/sdk"
)

// bundledRouter is a model router over the bundled provider plugins, real
// processes started by a real plugin host, reading its variables from env.
func bundledRouter(t *testing.T, env map[string]string, providers map[string]models.Provider) *models.Router {
	t.Helper()
	// The plugins inherit this process's environment: retries wait 1 ms.
	t.Setenv("MCPTEST_PROVIDER_BACKOFF", "1ms")
	reg := plugin.NewRegistry([]plugin.Source{{Dir: filepath.Join(binDir, "mcptest-plugins"), Origin: "bundled"}})
	host := plugin.NewHost(&plugin.ExecLauncher{}, plugin.HostOptions{})
	t.Cleanup(host.Close)
	return models.New(models.Options{Backend: models.PluginBackend(reg, host), Providers: providers,
		Getenv: func(k string) string { return env[k] }, Redactor: redact.New()})
}

var weatherTool = sdk.ToolDef{Name: "get_weather", Description: "weather for a city",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}

// TestEveryFamilyThroughTheRouter drives each bundled provider plugin
// binary through core/models against its vendor's fake: the tool call
// comes back, the key and base URL come from the family's variables, and
// the price table reaches the cost.
func TestEveryFamilyThroughTheRouter(t *testing.T) {
	cases := []struct {
		vendor, model, keyEnv, baseEnv string
	}{
		{vendorfake.Anthropic, "claude-sonnet-4-5", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"},
		{vendorfake.OpenAI, "gpt-4o-mini", "OPENAI_API_KEY", "OPENAI_BASE_URL"},
		{vendorfake.Gemini, "gemini-2.5-flash", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL"},
		{vendorfake.Mistral, "mistral-small-latest", "MISTRAL_API_KEY", "MISTRAL_BASE_URL"},
	}
	for _, c := range cases {
		t.Run(c.vendor, func(t *testing.T) {
			fake := vendorfake.New(t, c.vendor)
			key := "key-" + c.vendor + "-0123456789"
			fake.Key = key
			router := bundledRouter(t, map[string]string{c.keyEnv: key, c.baseEnv: fake.URL}, nil)
			ref := config.ModelRef{ID: c.model}
			fake.Push(vendorfake.Reply{Calls: []vendorfake.Call{{ID: "call_a", Name: "get_weather", Args: `{"city":"Lyon"}`}}, InputTokens: 1000, OutputTokens: 100})
			req := sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "weather in Lyon?"}}, Tools: []sdk.ToolDef{weatherTool}, MaxTokens: 64}
			r, err := router.Complete(context.Background(), ref, req)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Name != "get_weather" || string(r.Message.ToolCalls[0].Arguments) != `{"city":"Lyon"}` || r.StopReason != sdk.StopToolUse {
				t.Fatalf("reply = %+v", r)
			}
			price, ok := router.Price(ref)
			if !ok || r.Usage.CostUSD == nil || *r.Usage.CostUSD != price.Cost(r.Usage) || *r.Usage.CostUSD <= 0 {
				t.Fatalf("cost = %v with price %+v %v", r.Usage.CostUSD, price, ok)
			}
			// The result goes back and the answer ends the turn.
			req.Messages = append(req.Messages, r.Message, sdk.Message{Role: "tool", ToolCallID: r.Message.ToolCalls[0].ID, ToolName: "get_weather", Content: "14°C, rain"})
			fake.Push(vendorfake.Reply{Text: "It rains in Lyon.", InputTokens: 10, OutputTokens: 5})
			r, err = router.Complete(context.Background(), ref, req)
			if err != nil || r.Message.Content != "It rains in Lyon." || r.StopReason != sdk.StopEndTurn {
				t.Fatalf("second turn: %+v %v", r, err)
			}
			if !strings.Contains(string(fake.Requests()[1].Body), "14°C, rain") {
				t.Fatalf("the tool result did not reach the vendor: %s", fake.Requests()[1].Body)
			}
			// A refused key names its variable and never shows the key.
			fake.Key = "something-else"
			_, err = router.Complete(context.Background(), ref, req)
			if err == nil || !strings.Contains(err.Error(), c.keyEnv) || strings.Contains(err.Error(), key) || !errors.Is(err, plugin.ErrProviderRefused) {
				t.Fatalf("401: %v", err)
			}
		})
	}
}

// TestNoKeyIsErrNoKeyAndStartsNothing: without the family's variable the
// router answers ErrNoKey naming it, before any plugin or vendor is asked.
func TestNoKeyIsErrNoKeyAndStartsNothing(t *testing.T) {
	fake := vendorfake.New(t, vendorfake.Anthropic)
	router := bundledRouter(t, map[string]string{"ANTHROPIC_BASE_URL": fake.URL}, nil)
	_, err := router.Complete(context.Background(), config.ModelRef{ID: "claude-sonnet-4-5"}, sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	if !errors.Is(err, models.ErrNoKey) || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("err = %v", err)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("the vendor got %d requests", n)
	}
}

// TestOpenAICompatibleEntries: a providers: entry routes to the openai
// plugin at its base URL, with its key variable and organization, or
// Bearer EMPTY without one; embeddings go the same way.
func TestOpenAICompatibleEntries(t *testing.T) {
	fake := vendorfake.New(t, vendorfake.OpenAI)
	router := bundledRouter(t, map[string]string{"ROUTER_KEY": "rk-0123456789"}, map[string]models.Provider{
		"gateway": {Name: "gateway", Type: "openai", BaseURL: fake.URL, APIKeyEnv: "ROUTER_KEY", Organization: "team-a",
			Prices: []sdk.ModelPrice{{Model: "vendor/model-x", InputPerMTok: 1, OutputPerMTok: 1}}},
		"local": {Name: "local", Type: "openai", BaseURL: fake.URL},
	})
	fake.Push(vendorfake.Reply{Text: "hello", InputTokens: 500000, OutputTokens: 500000}, vendorfake.Reply{Text: "local hello"})
	r, err := router.Complete(context.Background(), config.ModelRef{ID: "vendor/model-x", Provider: "gateway"}, sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	if err != nil || r.Message.Content != "hello" || r.Usage.CostUSD == nil || *r.Usage.CostUSD != 1 {
		t.Fatalf("gateway: %+v %v", r, err)
	}
	r, err = router.Complete(context.Background(), config.ModelRef{ID: "llama", Provider: "local"}, sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	if err != nil || r.Message.Content != "local hello" {
		t.Fatalf("local: %+v %v", r, err)
	}
	reqs := fake.Requests()
	if reqs[0].Header.Get("Authorization") != "Bearer rk-0123456789" || reqs[0].Header.Get("OpenAI-Organization") != "team-a" || reqs[0].JSON()["model"] != "vendor/model-x" {
		t.Fatalf("gateway request: %v %s", reqs[0].Header, reqs[0].Body)
	}
	if reqs[1].Header.Get("Authorization") != "Bearer EMPTY" {
		t.Fatalf("keyless request: %v", reqs[1].Header)
	}
	fake.Push(vendorfake.Reply{Vectors: [][]float32{{0.1, 0.2}}})
	e, err := router.Embed(context.Background(), config.ModelRef{ID: "nomic-embed", Provider: "local"}, sdk.EmbedRequest{Inputs: []string{"a"}})
	if err != nil || len(e.Vectors) != 1 || len(e.Vectors[0]) != 2 {
		t.Fatalf("embed: %+v %v", e, err)
	}
}

// TestStubThroughTheRouter: the stub model answers offline, at no cost.
func TestStubThroughTheRouter(t *testing.T) {
	router := bundledRouter(t, nil, nil)
	r, err := router.Complete(context.Background(), config.ModelRef{ID: "stub"}, sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "weather in Lyon?"}}, Tools: []sdk.ToolDef{weatherTool}})
	if err != nil || len(r.Message.ToolCalls) != 1 || string(r.Message.ToolCalls[0].Arguments) != `{"city":"stub"}` || r.Usage.CostUSD == nil || *r.Usage.CostUSD != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := router.Embed(context.Background(), config.ModelRef{ID: "claude-3-5-haiku"}, sdk.EmbedRequest{Inputs: []string{"a"}}); !errors.Is(err, models.ErrNoKey) {
		t.Fatalf("embed on a keyless family: %v", err)
	}
}
