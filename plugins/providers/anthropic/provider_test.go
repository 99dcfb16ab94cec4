package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/plugins/providers/internal/vendortest"
	"github.com/mcptest/mcptest/sdk"
)

const testKey = "sk-ant-test-0123456789"

// setup serves the plugin in-process over real gRPC and points it at a
// fake Messages API.
func setup(t *testing.T) (*vendorfake.Fake, func(sdk.ChatRequest) (sdk.ChatResponse, error)) {
	t.Helper()
	fake, conn := vendortest.Setup(t, vendorfake.Anthropic, spec, testKey)
	ep := sdk.Endpoint{BaseURL: fake.URL, APIKey: testKey, KeyEnv: "ANTHROPIC_API_KEY"}
	return fake, func(req sdk.ChatRequest) (sdk.ChatResponse, error) {
		return conn.Provider.CompleteAt(context.Background(), pluginName, ep, req)
	}
}

var conversation = sdk.ChatRequest{
	Model: "claude-sonnet-4-5", System: "be brief", MaxTokens: 77,
	Tools: []sdk.ToolDef{{Name: "get_weather", Description: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)}},
	Messages: []sdk.Message{
		{Role: "user", Content: "weather?"},
		{Role: "assistant", ToolCalls: []sdk.ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}, {ID: "toolu_2", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)}}},
		{Role: "tool", ToolCallID: "toolu_1", Parts: []sdk.Part{{Type: sdk.PartText, Text: "sunny"}, {Type: sdk.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
		{Role: "tool", ToolCallID: "toolu_2", IsError: true, Content: "no such city"},
	},
}

func TestToolRoundTrip(t *testing.T) {
	for _, stream := range []bool{false, true} {
		fake, call := setup(t)
		fake.Push(vendorfake.Reply{Text: "Paris is sunny", Calls: []vendorfake.Call{{ID: "toolu_3", Name: "get_weather", Args: `{"city":"Oslo"}`}}, InputTokens: 12, OutputTokens: 5})
		req := conversation
		if stream {
			req.Options = json.RawMessage(`{"stream":true,"top_k":3}`)
		}
		r, err := call(req)
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		if r.Message.Content != "Paris is sunny" || len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].ID != "toolu_3" ||
			string(r.Message.ToolCalls[0].Arguments) != `{"city":"Oslo"}` || r.StopReason != sdk.StopToolUse {
			t.Fatalf("stream=%v: reply = %+v", stream, r)
		}
		if r.Usage.InputTokens != 12 || r.Usage.OutputTokens != 5 || r.Model != "claude-sonnet-4-5" {
			t.Fatalf("stream=%v: usage/model = %+v %q", stream, r.Usage, r.Model)
		}
		got := fake.Requests()[0]
		if got.Header.Get("X-Api-Key") != testKey && got.Header.Get("Authorization") != "Bearer "+testKey {
			t.Fatalf("key not sent: %v", got.Header)
		}
		var body struct {
			Model     string `json:"model"`
			MaxTokens int    `json:"max_tokens"`
			Stream    bool   `json:"stream"`
			TopK      int    `json:"top_k"`
			System    []struct {
				Text string `json:"text"`
			} `json:"system"`
			Tools []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"input_schema"`
			} `json:"tools"`
			Messages []struct {
				Role    string            `json:"role"`
				Content []json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(got.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Model != "claude-sonnet-4-5" || body.MaxTokens != 77 || body.Stream != stream || body.System[0].Text != "be brief" {
			t.Fatalf("request = %s", got.Body)
		}
		if stream && body.TopK != 3 {
			t.Fatalf("options not passed: %s", got.Body)
		}
		if s := body.Tools[0].InputSchema; s["type"] != "object" || s["additionalProperties"] != false || s["required"].([]any)[0] != "city" {
			t.Fatalf("input schema = %v", s)
		}
		if len(body.Messages) != 3 || body.Messages[2].Role != "user" || len(body.Messages[2].Content) != 2 {
			t.Fatalf("the two tool results are not one user message: %s", got.Body)
		}
		var r1, r2 map[string]any
		json.Unmarshal(body.Messages[2].Content[0], &r1)
		json.Unmarshal(body.Messages[2].Content[1], &r2)
		if r1["type"] != "tool_result" || r1["tool_use_id"] != "toolu_1" || r1["is_error"] == true || r2["is_error"] != true {
			t.Fatalf("tool results = %v / %v", r1, r2)
		}
		if img := r1["content"].([]any)[1].(map[string]any); img["type"] != "image" || img["source"].(map[string]any)["media_type"] != "image/png" {
			t.Fatalf("image block = %v", img)
		}
	}
}

func TestStopReasonsAndMaxTokens(t *testing.T) {
	fake, call := setup(t)
	fake.Push(vendorfake.Reply{Text: "cut", Stop: "max_tokens"}, vendorfake.Reply{Text: "", Stop: "content_filter"})
	req := sdk.ChatRequest{Model: "claude-haiku-4-5", Messages: []sdk.Message{{Role: "user", Content: "x"}}}
	if r, err := call(req); err != nil || r.StopReason != sdk.StopMaxTokens {
		t.Fatalf("%+v %v", r, err)
	}
	if r, err := call(req); err != nil || r.StopReason != sdk.StopContentFilter {
		t.Fatalf("%+v %v", r, err)
	}
	if mt := fake.Requests()[0].JSON()["max_tokens"]; mt != float64(defaultMaxTokens) {
		t.Fatalf("default max_tokens = %v", mt)
	}
}

func TestRetriesHonourRetryAfterThenSucceed(t *testing.T) {
	fake, call := setup(t)
	fake.Push(
		vendorfake.Reply{Status: 429, ErrorMessage: "slow down", Header: map[string]string{"retry-after-ms": "5"}},
		vendorfake.Reply{Status: 529, ErrorMessage: "overloaded"},
		vendorfake.Reply{Text: "ok"},
	)
	r, err := call(sdk.ChatRequest{Model: "claude-sonnet-4-5", Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	if err != nil || r.Message.Content != "ok" || len(fake.Requests()) != 3 {
		t.Fatalf("%+v %v after %d requests", r, err, len(fake.Requests()))
	}
}

func TestErrorsNameTheVariableAndMaskTheKey(t *testing.T) {
	fake, call := setup(t)
	req := sdk.ChatRequest{Model: "claude-sonnet-4-5", Messages: []sdk.Message{{Role: "user", Content: "x"}}}
	fake.Key = "another-key-entirely"
	_, err := call(req)
	if err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") || !strings.Contains(err.Error(), "HTTP 401") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("401: %v", err)
	}
	fake.Key = testKey
	for range 4 {
		fake.Push(vendorfake.Reply{Status: 503, ErrorMessage: "down"})
	}
	_, err = call(req)
	if err == nil || !strings.Contains(err.Error(), "HTTP 503: down (after 4 attempts)") {
		t.Fatalf("5xx: %v", err)
	}
	fake.Push(vendorfake.Reply{Status: 400, ErrorMessage: "bad tool name " + testKey})
	_, err = call(req)
	if err == nil || !strings.Contains(err.Error(), "HTTP 400: bad tool name [REDACTED]") || len(fake.Requests()) != 6 {
		t.Fatalf("400 (not retried, key masked): %v", err)
	}
	fake.Push(vendorfake.Reply{Body: `{"id":"x","content":[{"type":"text","text":"` + testKey + `"`})
	_, err = call(req)
	if err == nil || !strings.Contains(err.Error(), "malformed reply") || !strings.Contains(err.Error(), `{\"id\":\"x\"`) || strings.Contains(err.Error(), testKey) {
		t.Fatalf("malformed: %v", err)
	}
}

func TestEmbedIsUnsupported(t *testing.T) {
	_, conn := vendortest.Setup(t, vendorfake.Anthropic, spec, testKey)
	_, err := conn.Provider.Embed(context.Background(), pluginName, sdk.EmbedRequest{Model: "claude-x", Inputs: []string{"a"}})
	if err == nil || !strings.Contains(err.Error(), "no embeddings API") {
		t.Fatalf("embed: %v", err)
	}
}
