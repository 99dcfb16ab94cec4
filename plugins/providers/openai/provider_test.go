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

const testKey = "sk-openai-test-0123456789"

func setup(t *testing.T, ep sdk.Endpoint) (*vendorfake.Fake, *plugintest.Conn, sdk.Endpoint) {
	t.Helper()
	fake, conn := vendortest.Setup(t, vendorfake.OpenAI, spec, "")
	ep.BaseURL = fake.URL
	return fake, conn, ep
}

var conversation = sdk.ChatRequest{
	Model: "gpt-4o", System: "be brief", MaxTokens: 55,
	Tools: []sdk.ToolDef{{Name: "get_weather", Description: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
	Messages: []sdk.Message{
		{Role: "user", Content: "weather?"},
		{Role: "assistant", ToolCalls: []sdk.ToolCall{{ID: "c1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}, {ID: "c2", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)}}},
		{Role: "tool", ToolCallID: "c1", Parts: []sdk.Part{{Type: sdk.PartText, Text: "sunny"}, {Type: sdk.PartJSON, JSON: json.RawMessage(`{"t":21}`)}, {Type: sdk.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
		{Role: "tool", ToolCallID: "c2", IsError: true, Content: "no such city"},
	},
}

func TestToolRoundTripOpenAI(t *testing.T) {
	for _, stream := range []bool{false, true} {
		fake, conn, ep := setup(t, sdk.Endpoint{APIKey: testKey, KeyEnv: "OPENAI_API_KEY", Organization: "org-9"})
		fake.Key = testKey
		fake.Push(vendorfake.Reply{Text: "Paris is sunny", Calls: []vendorfake.Call{{ID: "c3", Name: "get_weather", Args: `{"city":"Oslo"}`}}, InputTokens: 20, OutputTokens: 7})
		req := conversation
		if stream {
			req.Options = json.RawMessage(`{"stream":true,"seed":7}`)
		}
		r, err := conn.Provider.CompleteAt(context.Background(), pluginName, ep, req)
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		if r.Message.Content != "Paris is sunny" || len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].ID != "c3" ||
			string(r.Message.ToolCalls[0].Arguments) != `{"city":"Oslo"}` || r.StopReason != sdk.StopToolUse {
			t.Fatalf("stream=%v: reply = %+v", stream, r)
		}
		if r.Usage.InputTokens != 20 || r.Usage.OutputTokens != 7 || r.Usage.TotalTokens != 27 || r.Model != "gpt-4o" {
			t.Fatalf("stream=%v: usage = %+v %q", stream, r.Usage, r.Model)
		}
		got := fake.Requests()[0]
		if got.Header.Get("OpenAI-Organization") != "org-9" {
			t.Fatalf("organization header = %q", got.Header.Get("OpenAI-Organization"))
		}
		body := got.JSON()
		if body["max_completion_tokens"] != float64(55) || body["max_tokens"] != nil {
			t.Fatalf("OpenAI gets max_completion_tokens: %s", got.Body)
		}
		if stream && body["seed"] != float64(7) {
			t.Fatalf("options not passed: %s", got.Body)
		}
		msgs := body["messages"].([]any)
		// system, user, assistant, tool, tool, user(images)
		if len(msgs) != 6 {
			t.Fatalf("messages = %s", got.Body)
		}
		t1, t2, imgs := msgs[3].(map[string]any), msgs[4].(map[string]any), msgs[5].(map[string]any)
		if t1["role"] != "tool" || t1["tool_call_id"] != "c1" || t1["content"] != "sunny\n{\"t\":21}" || t2["content"] != "Error: no such city" {
			t.Fatalf("tool messages = %v / %v", t1, t2)
		}
		if imgs["role"] != "user" || !strings.Contains(string(got.Body), `"url":"data:image/png;base64,iVBORw0KGgo="`) {
			t.Fatalf("images message = %v", imgs)
		}
	}
}

func TestCompatibleEntryKeylessAndMaxTokens(t *testing.T) {
	fake, conn, ep := setup(t, sdk.Endpoint{APIKey: "EMPTY", Name: "local-vllm"})
	fake.Push(vendorfake.Reply{Text: "hi", InputTokens: 1, OutputTokens: 1})
	r, err := conn.Provider.CompleteAt(context.Background(), pluginName, ep, sdk.ChatRequest{Model: "meta-llama/Llama-3", MaxTokens: 9, Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	if err != nil || r.Message.Content != "hi" || r.StopReason != sdk.StopEndTurn {
		t.Fatalf("%+v %v", r, err)
	}
	got := fake.Requests()[0]
	if got.Header.Get("Authorization") != "Bearer EMPTY" || got.JSON()["max_tokens"] != float64(9) || got.Header.Get("OpenAI-Organization") != "" {
		t.Fatalf("request = %v %s", got.Header, got.Body)
	}
	fake.Key = "needs-a-real-key"
	_, err = conn.Provider.CompleteAt(context.Background(), pluginName, ep, sdk.ChatRequest{Model: "m", Messages: []sdk.Message{{Role: "user", Content: "x"}}})
	if err == nil || !strings.Contains(err.Error(), `provider "local-vllm" sends no key`) || !strings.Contains(err.Error(), "api_key_env") {
		t.Fatalf("401 of a keyless entry: %v", err)
	}
}

func TestErrorsOpenAI(t *testing.T) {
	fake, conn, ep := setup(t, sdk.Endpoint{APIKey: testKey, KeyEnv: "OPENAI_API_KEY"})
	call := func() error {
		_, err := conn.Provider.CompleteAt(context.Background(), pluginName, ep, sdk.ChatRequest{Model: "gpt-4o", Messages: []sdk.Message{{Role: "user", Content: "x"}}})
		return err
	}
	fake.Push(vendorfake.Reply{Status: 403, ErrorMessage: "project not allowed"})
	if err := call(); err == nil || !strings.Contains(err.Error(), "HTTP 403: project not allowed; check the key in OPENAI_API_KEY") {
		t.Fatalf("403: %v", err)
	}
	fake.Push(vendorfake.Reply{Status: 429, ErrorMessage: "rate", Header: map[string]string{"retry-after": "0"}}, vendorfake.Reply{Status: 502, ErrorMessage: "gw"}, vendorfake.Reply{Text: "ok"})
	if err := call(); err != nil {
		t.Fatalf("retries: %v", err)
	}
	fake.Push(vendorfake.Reply{Status: 429, ErrorMessage: "come back tomorrow", Header: map[string]string{"retry-after": "86400"}})
	before := len(fake.Requests())
	if err := call(); err == nil || !strings.Contains(err.Error(), "HTTP 429: come back tomorrow") || len(fake.Requests()) != before+1 {
		t.Fatalf("a retry-after beyond the wait bound is not waited out: %v", err)
	}
	fake.Push(vendorfake.Reply{Body: `{"choices": "` + testKey})
	if err := call(); err == nil || !strings.Contains(err.Error(), "malformed reply") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("malformed: %v", err)
	}
	fake.Push(vendorfake.Reply{Body: `{"id":"x","object":"chat.completion","choices":[]}`})
	if err := call(); err == nil || !strings.Contains(err.Error(), "no choices") {
		t.Fatalf("empty choices: %v", err)
	}
}

func TestEmbedOpenAI(t *testing.T) {
	fake, conn, ep := setup(t, sdk.Endpoint{APIKey: testKey, KeyEnv: "OPENAI_API_KEY"})
	fake.Push(vendorfake.Reply{Vectors: [][]float32{{0.5, 1}, {0.25, 0}}, InputTokens: 4})
	r, err := conn.Provider.EmbedAt(context.Background(), pluginName, ep, sdk.EmbedRequest{Model: "text-embedding-3-small", Inputs: []string{"a", "b"}})
	if err != nil || len(r.Vectors) != 2 || r.Vectors[0][0] != 0.5 || r.Vectors[1][0] != 0.25 || r.Usage.InputTokens != 4 {
		t.Fatalf("%+v %v", r, err)
	}
	body := fake.Requests()[0].JSON()
	if body["model"] != "text-embedding-3-small" || len(body["input"].([]any)) != 2 {
		t.Fatalf("request = %v", body)
	}
}
