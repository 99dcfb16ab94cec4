package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/plugins/providers/internal/vendortest"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

const testKey = "gm-test-key-0123456789"

func setup(t *testing.T) (*vendorfake.Fake, *plugintest.Conn, sdk.Endpoint) {
	t.Helper()
	fake, conn := vendortest.Setup(t, vendorfake.Gemini, spec, testKey)
	return fake, conn, sdk.Endpoint{BaseURL: fake.URL, APIKey: testKey, KeyEnv: "GEMINI_API_KEY"}
}

var conversation = sdk.ChatRequest{
	Model: "gemini-2.5-flash", System: "be brief", MaxTokens: 33,
	Tools: []sdk.ToolDef{{Name: "get_weather", Description: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
	Messages: []sdk.Message{
		{Role: "user", Content: "weather?"},
		{Role: "assistant", ToolCalls: []sdk.ToolCall{{ID: "c1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}, {ID: "c2", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)}}},
		{Role: "tool", ToolCallID: "c1", Parts: []sdk.Part{{Type: sdk.PartText, Text: "sunny"}, {Type: sdk.PartJSON, JSON: json.RawMessage(`{"t":21}`)}, {Type: sdk.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
		{Role: "tool", ToolCallID: "c2", IsError: true, Content: "no such city"},
	},
}

func TestToolRoundTripGemini(t *testing.T) {
	for _, stream := range []bool{false, true} {
		fake, conn, ep := setup(t)
		fake.Push(vendorfake.Reply{Text: "Paris is sunny", Calls: []vendorfake.Call{{ID: "", Name: "get_weather", Args: `{"city":"Oslo"}`}}, InputTokens: 30, OutputTokens: 8})
		req := conversation
		if stream {
			req.Options = json.RawMessage(`{"stream":true}`)
		}
		r, err := conn.Provider.CompleteAt(context.Background(), pluginName, ep, req)
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		if r.Message.Content != "Paris is sunny" || len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Name != "get_weather" ||
			string(r.Message.ToolCalls[0].Arguments) != `{"city":"Oslo"}` || r.StopReason != sdk.StopToolUse {
			t.Fatalf("stream=%v: reply = %+v", stream, r)
		}
		if r.Usage.InputTokens != 30 || r.Usage.OutputTokens != 8 || r.Usage.TotalTokens != 38 || r.Model != "gemini-2.5-flash" {
			t.Fatalf("stream=%v: usage = %+v %q", stream, r.Usage, r.Model)
		}
		got := fake.Requests()[0]
		wantPath := "/v1beta/models/gemini-2.5-flash:generateContent"
		if stream {
			wantPath = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
		}
		if got.Path != wantPath || got.Header.Get("X-Goog-Api-Key") != testKey {
			t.Fatalf("request %s with %v", got.Path, got.Header)
		}
		var body struct {
			Contents []struct {
				Role  string           `json:"role"`
				Parts []map[string]any `json:"parts"`
			} `json:"contents"`
			SystemInstruction struct {
				Parts []map[string]any `json:"parts"`
			} `json:"systemInstruction"`
			GenerationConfig map[string]any `json:"generationConfig"`
			Tools            []struct {
				FunctionDeclarations []map[string]any `json:"functionDeclarations"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(got.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.GenerationConfig["maxOutputTokens"] != float64(33) || body.SystemInstruction.Parts[0]["text"] != "be brief" ||
			body.Tools[0].FunctionDeclarations[0]["parametersJsonSchema"] == nil {
			t.Fatalf("request = %s", got.Body)
		}
		if len(body.Contents) != 3 || body.Contents[1].Role != "model" || body.Contents[2].Role != "user" || len(body.Contents[2].Parts) != 2 {
			t.Fatalf("contents = %s", got.Body)
		}
		fr1 := body.Contents[2].Parts[0]["functionResponse"].(map[string]any)
		fr2 := body.Contents[2].Parts[1]["functionResponse"].(map[string]any)
		resp1 := fr1["response"].(map[string]any)
		if fr1["name"] != "get_weather" || resp1["output"] != "sunny" || resp1["structuredContent"].(map[string]any)["t"] != float64(21) || fr1["parts"] == nil {
			t.Fatalf("function response 1 = %v", fr1)
		}
		if fr2["response"].(map[string]any)["error"] != "no such city" {
			t.Fatalf("function response 2 = %v", fr2)
		}
		// The missing call id is made up, stable for the turn.
		if r.Message.ToolCalls[0].ID != "call_2_1" {
			t.Fatalf("generated id = %q", r.Message.ToolCalls[0].ID)
		}
	}
}

func TestErrorsGemini(t *testing.T) {
	fake, conn, ep := setup(t)
	call := func() (sdk.ChatResponse, error) {
		return conn.Provider.CompleteAt(context.Background(), pluginName, ep, sdk.ChatRequest{Model: "gemini-2.5-pro", Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	}
	fake.Push(vendorfake.Reply{Text: "", Stop: "content_filter"}, vendorfake.Reply{Text: "long", Stop: "max_tokens"})
	if r, err := call(); err != nil || r.StopReason != sdk.StopContentFilter {
		t.Fatalf("safety: %+v %v", r, err)
	}
	if r, err := call(); err != nil || r.StopReason != sdk.StopMaxTokens {
		t.Fatalf("max tokens: %+v %v", r, err)
	}
	fake.Push(vendorfake.Reply{Status: 500, ErrorMessage: "internal"}, vendorfake.Reply{Status: 503, ErrorMessage: "unavailable"}, vendorfake.Reply{Text: "ok"})
	if r, err := call(); err != nil || r.Message.Content != "ok" {
		t.Fatalf("retries: %+v %v", r, err)
	}
	ep.KeyEnv = "GOOGLE_API_KEY"
	fake.Key = "other"
	if _, err := call(); err == nil || !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "GOOGLE_API_KEY") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("401: %v", err)
	}
	fake.Key = testKey
	fake.Push(vendorfake.Reply{Body: `{"candidates": [` + testKey})
	if _, err := call(); err == nil || !strings.Contains(err.Error(), "malformed reply") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("malformed: %v", err)
	}
	fake.Push(vendorfake.Reply{Body: `{}`})
	if _, err := call(); err == nil || !strings.Contains(err.Error(), "no candidates") {
		t.Fatalf("empty: %v", err)
	}
}

func TestEmbedGemini(t *testing.T) {
	fake, conn, ep := setup(t)
	fake.Push(vendorfake.Reply{Vectors: [][]float32{{1, 0}, {0, 1}}})
	r, err := conn.Provider.EmbedAt(context.Background(), pluginName, ep, sdk.EmbedRequest{Model: "gemini-embedding-001", Inputs: []string{"a", "b"}})
	if err != nil || len(r.Vectors) != 2 || r.Vectors[1][1] != 1 {
		t.Fatalf("%+v %v", r, err)
	}
	if p := fake.Requests()[0].Path; !strings.HasSuffix(p, ":batchEmbedContents") {
		t.Fatalf("path %s", p)
	}
}

func TestPricesAcceptBothSpellings(t *testing.T) {
	p, _ := spec.Plugin()
	for _, m := range []string{"gemini-2.5-flash-001", "models/gemini-2.5-flash"} {
		if price, ok := sdk.LookupPrice(p.Prices, m); !ok || price.OutputPerMTok != 2.5 {
			t.Errorf("%s: %+v %v", m, price, ok)
		}
	}
}
