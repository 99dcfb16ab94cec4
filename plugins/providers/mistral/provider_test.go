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

const testKey = "ms-test-key-0123456789"

func setup(t *testing.T) (*vendorfake.Fake, *plugintest.Conn, sdk.Endpoint) {
	t.Helper()
	fake, conn := vendortest.Setup(t, vendorfake.Mistral, spec, testKey)
	return fake, conn, sdk.Endpoint{BaseURL: fake.URL, APIKey: testKey, KeyEnv: "MISTRAL_API_KEY"}
}

var conversation = sdk.ChatRequest{
	Model: "mistral-small-latest", System: "be brief", MaxTokens: 44,
	Tools: []sdk.ToolDef{{Name: "get_weather", Description: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
	Messages: []sdk.Message{
		{Role: "user", Content: "weather?"},
		{Role: "assistant", ToolCalls: []sdk.ToolCall{{ID: "abcdefghi", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
		{Role: "tool", ToolCallID: "abcdefghi", IsError: true, Parts: []sdk.Part{{Type: sdk.PartText, Text: "no city"}, {Type: sdk.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
	},
}

func TestToolRoundTripMistral(t *testing.T) {
	for _, stream := range []bool{false, true} {
		fake, conn, ep := setup(t)
		fake.Push(vendorfake.Reply{Text: "Paris is sunny", Calls: []vendorfake.Call{{ID: "zyxwvutsr", Name: "get_weather", Args: `{"city":"Oslo"}`}}, InputTokens: 9, OutputTokens: 4})
		req := conversation
		if stream {
			req.Options = json.RawMessage(`{"stream":true,"random_seed":3}`)
		}
		r, err := conn.Provider.CompleteAt(context.Background(), pluginName, ep, req)
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		if r.Message.Content != "Paris is sunny" || len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].ID != "zyxwvutsr" ||
			string(r.Message.ToolCalls[0].Arguments) != `{"city":"Oslo"}` || r.StopReason != sdk.StopToolUse {
			t.Fatalf("stream=%v: reply = %+v", stream, r)
		}
		if r.Usage.InputTokens != 9 || r.Usage.OutputTokens != 4 || r.Usage.TotalTokens != 13 || r.Model != "mistral-small-latest" {
			t.Fatalf("stream=%v: usage = %+v %q", stream, r.Usage, r.Model)
		}
		got := fake.Requests()[0]
		body := got.JSON()
		if got.Path != "/v1/chat/completions" || body["max_tokens"] != float64(44) || (body["stream"] == true) != stream {
			t.Fatalf("request %s %s", got.Path, got.Body)
		}
		if stream && body["random_seed"] != float64(3) {
			t.Fatalf("options not passed: %s", got.Body)
		}
		msgs := body["messages"].([]any)
		tm := msgs[3].(map[string]any)
		if len(msgs) != 5 || tm["role"] != "tool" || tm["name"] != "get_weather" || tm["tool_call_id"] != "abcdefghi" || tm["content"] != "Error: no city" {
			t.Fatalf("messages = %s", got.Body)
		}
		if a := msgs[2].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any); a["arguments"] != `{"city":"Paris"}` {
			t.Fatalf("assistant call arguments are sent as a JSON string: %v", a)
		}
	}
}

func TestErrorsMistral(t *testing.T) {
	fake, conn, ep := setup(t)
	call := func() (sdk.ChatResponse, error) {
		return conn.Provider.CompleteAt(context.Background(), pluginName, ep, sdk.ChatRequest{Model: "codestral-latest", Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	}
	fake.Push(vendorfake.Reply{Status: 429, ErrorMessage: "rate", Header: map[string]string{"Retry-After": "0.001"}}, vendorfake.Reply{Text: "ok", Stop: "max_tokens"})
	if r, err := call(); err != nil || r.StopReason != sdk.StopMaxTokens {
		t.Fatalf("retry: %+v %v", r, err)
	}
	fake.Key = "other"
	if _, err := call(); err == nil || !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "MISTRAL_API_KEY") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("401: %v", err)
	}
	fake.Key = testKey
	fake.Push(vendorfake.Reply{Status: 422, Body: `{"detail":"bad model"}`})
	if _, err := call(); err == nil || !strings.Contains(err.Error(), "HTTP 422: bad model") {
		t.Fatalf("422: %v", err)
	}
	fake.Push(vendorfake.Reply{Body: `<html>` + testKey})
	if _, err := call(); err == nil || !strings.Contains(err.Error(), "malformed reply") || !strings.Contains(err.Error(), "<html>") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("malformed: %v", err)
	}
}

func TestEmbedMistral(t *testing.T) {
	fake, conn, ep := setup(t)
	fake.Push(vendorfake.Reply{Vectors: [][]float32{{1}, {2}}, InputTokens: 2})
	r, err := conn.Provider.EmbedAt(context.Background(), pluginName, ep, sdk.EmbedRequest{Model: "mistral-embed", Inputs: []string{"a", "b"}})
	if err != nil || len(r.Vectors) != 2 || r.Vectors[1][0] != 2 || r.Usage.InputTokens != 2 {
		t.Fatalf("%+v %v", r, err)
	}
	if p := fake.Requests()[0].Path; p != "/v1/embeddings" {
		t.Fatalf("path %s", p)
	}
}

func TestBaseURLForms(t *testing.T) {
	for base, want := range map[string]string{"": "https://api.mistral.ai/v1/x", "http://h:1": "http://h:1/v1/x", "http://h:1/v1/": "http://h:1/v1/x"} {
		if got := endpointURL(sdk.Endpoint{BaseURL: base}, "/x"); got != want {
			t.Errorf("%q: %s, want %s", base, got, want)
		}
	}
}
