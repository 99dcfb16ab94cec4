package agent

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk"
)

func TestToolMessages(t *testing.T) {
	cases := []struct {
		name    string
		res     ToolResult
		content string // a substring of Content
		parts   []string
		isError bool
	}{
		{"text only", ToolResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"hello"}]}`)}, "hello", nil, false},
		{"isError result", ToolResult{IsError: true, Result: json.RawMessage(`{"content":[{"type":"text","text":"bad city"}],"isError":true}`)},
			"Error (the tool reported isError): bad city", nil, true},
		{"failure without a result", ToolResult{IsError: true, Result: json.RawMessage("null"), Error: "JSON-RPC error: -32602 no such tool"},
			"Error: JSON-RPC error: -32602", nil, true},
		{"image and text", ToolResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"here"},{"type":"image","data":"aGVsbG8=","mimeType":"image/png"}]}`)},
			"[image image/png, 5 bytes]", []string{"text", "image"}, false},
		{"structured content", ToolResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"sum"}],"structuredContent":{"sum":5}}`)},
			`{"sum":5}`, []string{"text", "json"}, false},
		{"structured content already in a text block", ToolResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"{\"sum\": 5}"}],"structuredContent":{"sum":5}}`)},
			`{"sum": 5}`, []string{"text", "json"}, false},
		{"embedded resource and link", ToolResult{Result: json.RawMessage(`{"content":[{"type":"resource","resource":{"uri":"file:///a","text":"inside"}},{"type":"resource_link","uri":"file:///b"}]}`)},
			"inside\n[resource link file:///b]", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := toolMessage(sdk.ToolCall{ID: "c1", Name: "srv__tool"}, &c.res)
			if m.Role != "tool" || m.ToolCallID != "c1" || m.ToolName != "srv__tool" || m.IsError != c.isError {
				t.Fatalf("message = %+v", m)
			}
			if !strings.Contains(m.Content, c.content) {
				t.Errorf("content %q lacks %q", m.Content, c.content)
			}
			var kinds []string
			for _, p := range m.Parts {
				kinds = append(kinds, p.Type)
			}
			if strings.Join(kinds, ",") != strings.Join(c.parts, ",") {
				t.Errorf("parts %v, want %v", kinds, c.parts)
			}
		})
	}
	// Structured content the text already carries is not repeated.
	m := toolMessage(sdk.ToolCall{ID: "c"}, &cases[5].res)
	if strings.Count(m.Content, "sum") != 1 {
		t.Errorf("structured content repeated: %q", m.Content)
	}
}

func TestHugeResultIsBounded(t *testing.T) {
	big := strings.Repeat("é", maxToolText)
	raw, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": big}}})
	text := resultText(raw, false, "")
	if len(text) > maxToolText+64 || !strings.Contains(text, "more bytes cut") || !utf8.ValidString(text) {
		t.Fatalf("bounded text of %d bytes", len(text))
	}
}
