package eval

import (
	"encoding/json"
	"testing"

	"github.com/mcptest/mcptest/core/agent"
)

// A run as a live server answered it and as a cassette replays it (keys
// reordered, spacing dropped) read the same to a judge; the trace itself
// is left as the server sent it.
func TestCanonicalTraceIgnoresKeyOrder(t *testing.T) {
	trace := func(args, result string) *agent.Trace {
		call := agent.ToolCall{Name: "echo", Server: "demo", Args: json.RawMessage(args)}
		res := agent.ToolResult{Name: "echo", Server: "demo", Result: json.RawMessage(result)}
		tr := &agent.Trace{ToolCalls: []agent.ToolCall{call}, ToolResults: []agent.ToolResult{res}, FinalResponse: "hi"}
		tr.Conversation.PerTurn = []agent.Turn{{User: "u", ToolCalls: []agent.ToolCall{call}, ToolResults: []agent.ToolResult{res}}}
		return tr
	}
	live := trace(`{"message": "hi", "b": 1}`, `{"isError": false, "content": [{"type": "text", "text": "hi"}]}`)
	replayed := trace(`{"b":1,"message":"hi"}`, `{"content":[{"text":"hi","type":"text"}],"isError":false}`)
	a, _ := json.Marshal(CanonicalTrace(live))
	b, _ := json.Marshal(CanonicalTrace(replayed))
	if string(a) != string(b) {
		t.Fatalf("live and replayed differ:\n%s\n%s", a, b)
	}
	if string(live.ToolResults[0].Result) != `{"isError": false, "content": [{"type": "text", "text": "hi"}]}` {
		t.Error("the original trace was changed")
	}
	if string(CanonicalTrace(trace(`not json`, `null`)).ToolCalls[0].Args) != "not json" {
		t.Error("arguments that are not JSON should stay as they are")
	}
}
