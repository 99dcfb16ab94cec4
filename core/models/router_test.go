package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
)

func TestDetectFollowsTheSpecTable(t *testing.T) {
	cases := map[string]string{
		"claude-sonnet-4-5": FamilyAnthropic, "claude-3-5-haiku-latest": FamilyAnthropic,
		"gpt-4o": FamilyOpenAI, "chatgpt-4o-latest": FamilyOpenAI, "o1": FamilyOpenAI, "o3-mini": FamilyOpenAI,
		"o4-mini": FamilyOpenAI, "text-embedding-3-small": FamilyOpenAI, "davinci-002": FamilyOpenAI,
		"gemini-2.5-pro": FamilyGemini, "models/gemini-2.0-flash": FamilyGemini,
		"mistral-large-latest": FamilyMistral, "codestral-latest": FamilyMistral, "magistral-medium": FamilyMistral,
		"ministral-8b": FamilyMistral, "devstral-small": FamilyMistral, "pixtral-12b": FamilyMistral,
		"open-mistral-nemo": FamilyMistral, "open-mixtral-8x7b": FamilyMistral,
		"stub": FamilyStub,
		// Not in the table: no guessing.
		"Claude-3": "", "claude": "", "gpt4": "", "o": "", "omni-1": "", "llama-3": "", "mixtral-8x7b": "",
		"gemini": "", "stub-2": "", "anthropic/claude-3.5-sonnet": "", "": "",
	}
	for model, want := range cases {
		got, ok := Detect(model)
		if got != want || ok != (want != "") {
			t.Errorf("Detect(%q) = %q, %v; want %q", model, got, ok, want)
		}
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolveReadsKeysOrgAndBaseURLs(t *testing.T) {
	red := redact.New()
	r := New(Options{Redactor: red, Getenv: env(map[string]string{
		"ANTHROPIC_API_KEY": "ak-anthropic-1", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/a",
		"OPENAI_API_KEY": "sk-openai-1", "OPENAI_ORG_ID": "org-1", "OPENAI_BASE_URL": "http://127.0.0.1:9/o",
		"GOOGLE_API_KEY": "g-google-1", "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9/g",
		"MISTRAL_API_KEY": "m-mistral-1", "MISTRAL_BASE_URL": "http://127.0.0.1:9/m",
	})})
	cases := []struct {
		model string
		want  sdk.Endpoint
	}{
		{"claude-sonnet-4-5", sdk.Endpoint{BaseURL: "http://127.0.0.1:9/a", APIKey: "ak-anthropic-1", KeyEnv: "ANTHROPIC_API_KEY"}},
		{"o3", sdk.Endpoint{BaseURL: "http://127.0.0.1:9/o", APIKey: "sk-openai-1", KeyEnv: "OPENAI_API_KEY", Organization: "org-1"}},
		{"gemini-2.5-flash", sdk.Endpoint{BaseURL: "http://127.0.0.1:9/g", APIKey: "g-google-1", KeyEnv: "GOOGLE_API_KEY"}},
		{"mistral-small-latest", sdk.Endpoint{BaseURL: "http://127.0.0.1:9/m", APIKey: "m-mistral-1", KeyEnv: "MISTRAL_API_KEY"}},
		{"stub", sdk.Endpoint{}},
	}
	for _, c := range cases {
		rt, err := r.Resolve(config.ModelRef{ID: c.model})
		if err != nil || rt.Endpoint != c.want || rt.Model != c.model {
			t.Errorf("%s: %+v, %v; want %+v", c.model, rt, err, c.want)
		}
	}
	for _, k := range []string{"ak-anthropic-1", "sk-openai-1", "g-google-1", "m-mistral-1"} {
		if !red.Contains("x " + k + " y") {
			t.Errorf("key %s was not registered with the redactor", k)
		}
	}
}

func TestGeminiPrefersGeminiKey(t *testing.T) {
	r := New(Options{Getenv: env(map[string]string{"GEMINI_API_KEY": "g-gemini-1", "GOOGLE_API_KEY": "g-google-1"})})
	rt, err := r.Resolve(config.ModelRef{ID: "gemini-2.5-pro"})
	if err != nil || rt.Endpoint.KeyEnv != "GEMINI_API_KEY" || rt.Endpoint.BaseURL != "" {
		t.Fatalf("%+v, %v", rt, err)
	}
}

func TestNoKeyNamesTheVariable(t *testing.T) {
	r := New(Options{Getenv: env(nil), Providers: map[string]Provider{"openrouter": {Name: "openrouter", Type: "openai", BaseURL: "http://x", APIKeyEnv: "OPENROUTER_API_KEY"}}})
	for ref, want := range map[config.ModelRef]string{
		{ID: "claude-sonnet-4-5"}:                     "set ANTHROPIC_API_KEY",
		{ID: "gemini-2.5-pro"}:                        "set GEMINI_API_KEY or GOOGLE_API_KEY",
		{ID: "gpt-4o"}:                                "set OPENAI_API_KEY",
		{ID: "codestral-latest"}:                      "set MISTRAL_API_KEY",
		{ID: "openai/gpt-4o", Provider: "openrouter"}: `provider "openrouter" has no key: set OPENROUTER_API_KEY`,
	} {
		_, err := r.Complete(context.Background(), ref, sdk.ChatRequest{})
		var nk *NoKeyError
		if !errors.Is(err, ErrNoKey) || !errors.As(err, &nk) || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v; want ErrNoKey saying %q", ref, err, want)
		}
	}
}

func TestProviderEntries(t *testing.T) {
	r := New(Options{Getenv: env(map[string]string{"AZ_KEY": "az-key-123"}), Providers: map[string]Provider{
		"local": {Name: "local", Type: "openai", BaseURL: "http://127.0.0.1:8000/v1"},
		"azure": {Name: "azure", Type: "openai", BaseURL: "http://127.0.0.1:1/az", APIKeyEnv: "AZ_KEY", Organization: "my-org"},
	}})
	rt, err := r.Resolve(config.ModelRef{ID: "llama-3", Provider: "local"})
	if err != nil || rt.Key != FamilyOpenAI || rt.Endpoint.APIKey != "EMPTY" || rt.Endpoint.BaseURL != "http://127.0.0.1:8000/v1" || rt.Endpoint.Name != "local" {
		t.Fatalf("keyless entry: %+v, %v", rt, err)
	}
	if r.Redactor().Contains("EMPTY") {
		t.Fatal("the keyless placeholder was registered as a secret")
	}
	rt, err = r.Resolve(config.ModelRef{ID: "my-gpt-5", Provider: "azure"})
	if err != nil || rt.Endpoint.APIKey != "az-key-123" || rt.Endpoint.KeyEnv != "AZ_KEY" || rt.Endpoint.Organization != "my-org" {
		t.Fatalf("keyed entry: %+v, %v", rt, err)
	}
	if _, err := r.Resolve(config.ModelRef{ID: "x", Provider: "nope"}); !errors.Is(err, ErrUnknownProvider) {
		t.Fatalf("unknown entry: %v", err)
	}
	if _, err := r.Resolve(config.ModelRef{ID: "llama-3"}); !errors.Is(err, ErrUnknownModel) || !strings.Contains(err.Error(), "providers:") {
		t.Fatalf("undetected model: %v", err)
	}
}

// leakyBackend fails with the key it was given in its message, as a
// careless vendor error might.
type leakyBackend struct{ prices []sdk.ModelPrice }

func (leakyBackend) Complete(_ context.Context, _ string, ep sdk.Endpoint, _ sdk.ChatRequest) (sdk.ChatResponse, error) {
	return sdk.ChatResponse{}, fmt.Errorf("vendor said: bad key %q: %w", ep.APIKey, ErrUnknownModel)
}

func (leakyBackend) Embed(_ context.Context, _ string, ep sdk.Endpoint, _ sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{}, errors.New("no " + ep.APIKey)
}

func (b leakyBackend) Prices(string) ([]sdk.ModelPrice, error) { return b.prices, nil }

func TestErrorsAreMaskedAndKeepTheirSentinels(t *testing.T) {
	r := New(Options{Backend: leakyBackend{}, Getenv: env(map[string]string{"OPENAI_API_KEY": "sk-live-abcdef"})})
	_, err := r.Complete(context.Background(), config.ModelRef{ID: "gpt-4o"}, sdk.ChatRequest{})
	if err == nil || strings.Contains(err.Error(), "sk-live-abcdef") || !strings.Contains(err.Error(), redact.Mask) {
		t.Fatalf("error = %v", err)
	}
	if !errors.Is(err, ErrUnknownModel) {
		t.Fatal("masking lost the cause's sentinel")
	}
	if errors.Unwrap(err) != nil {
		t.Fatal("the unmasked cause is reachable through Unwrap")
	}
	_, err = r.Embed(context.Background(), config.ModelRef{ID: "text-embedding-3-small"}, sdk.EmbedRequest{})
	if err == nil || strings.Contains(err.Error(), "sk-live-abcdef") {
		t.Fatalf("embed error = %v", err)
	}
}

func TestPriceFromEntryThenPluginTable(t *testing.T) {
	r := New(Options{Backend: leakyBackend{prices: []sdk.ModelPrice{{Model: "gpt-4o*", InputPerMTok: 2.5, OutputPerMTok: 10}}},
		Providers: map[string]Provider{
			"or":  {Name: "or", Type: "openai", Prices: []sdk.ModelPrice{{Model: "openai/gpt-4o", InputPerMTok: 3, OutputPerMTok: 12}}},
			"raw": {Name: "raw", Type: "openai"},
		}})
	if p, ok := r.Price(config.ModelRef{ID: "gpt-4o-2024-08-06"}); !ok || p.InputPerMTok != 2.5 {
		t.Errorf("family price: %+v %v", p, ok)
	}
	if p, ok := r.Price(config.ModelRef{ID: "openai/gpt-4o", Provider: "or"}); !ok || p.OutputPerMTok != 12 {
		t.Errorf("entry override: %+v %v", p, ok)
	}
	if p, ok := r.Price(config.ModelRef{ID: "gpt-4o", Provider: "raw"}); !ok || p.InputPerMTok != 2.5 {
		t.Errorf("entry falls back to the openai table: %+v %v", p, ok)
	}
	for _, ref := range []config.ModelRef{{ID: "claude-x"}, {ID: "llama"}, {ID: "m", Provider: "nope"}} {
		if _, ok := r.Price(ref); ok {
			t.Errorf("%+v has a price", ref)
		}
	}
}

func TestHostServiceRefs(t *testing.T) {
	h := &HostService{}
	if _, err := h.Complete(context.Background(), "", sdk.ChatRequest{Model: "gpt-4o"}); !errors.Is(err, sdk.ErrNoHost) {
		t.Fatalf("no caller: %v", err)
	}
	h.Caller = New(Options{Getenv: env(nil)})
	for provider, model := range map[string]string{"": "", "anthropic": "gpt-4o"} {
		if _, err := h.Complete(context.Background(), provider, sdk.ChatRequest{Model: model}); err == nil || errors.Is(err, ErrNoKey) {
			t.Errorf("provider %q model %q: %v", provider, model, err)
		}
	}
	if _, err := h.Complete(context.Background(), "openai", sdk.ChatRequest{Model: "gpt-4o"}); !errors.Is(err, ErrNoKey) {
		t.Errorf("family provider: %v", err)
	}
	if _, err := h.Complete(context.Background(), "openrouter", sdk.ChatRequest{Model: "x"}); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("entry provider: %v", err)
	}
}

// A request that names no model goes to the default judge model when the
// host has one; a default that cannot be had (no key anywhere) comes back
// as the plugin's no-key error, so the plugin defers its item.
func TestHostServiceDefaultModel(t *testing.T) {
	h := &HostService{Caller: New(Options{Getenv: env(nil)})}
	h.DefaultModel = func() (string, error) { return "gpt-4o", nil }
	_, err := h.Complete(context.Background(), "", sdk.ChatRequest{})
	var nk *NoKeyError
	if !errors.As(err, &nk) || nk.Model != "gpt-4o" {
		t.Fatalf("the default model was not used: %v", err)
	}
	h.DefaultModel = func() (string, error) {
		return "", fmt.Errorf("no judge model: %w", &NoKeyError{Model: "(default judge)", Family: "any", Vars: []string{"OPENAI_API_KEY"}})
	}
	if _, err := h.Complete(context.Background(), "", sdk.ChatRequest{}); !errors.Is(err, sdk.ErrNoModelKey) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Fatalf("no default: %v", err)
	}
	// A named model is never replaced.
	h.DefaultModel = func() (string, error) { t.Fatal("asked for a default"); return "", nil }
	if _, err := h.Complete(context.Background(), "", sdk.ChatRequest{Model: "claude-x"}); !errors.As(err, &nk) || nk.Model != "claude-x" {
		t.Fatalf("named model: %v", err)
	}
}
