package eval

import (
	"encoding/json"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/internal/jsonx"
)

// CanonicalTrace is tr as a judge should read it: every tool call's
// arguments and every tool result in canonical JSON (sorted keys, no
// insignificant space). A live server writes its keys in its own order
// and a cassette replays them canonically; without this, the judge prompt
// of a replayed run would differ from the recorded one and the judge's
// tape would not answer it. tr itself is left as it is (the report keeps
// what the server sent); the copy shares nothing that is changed.
func CanonicalTrace(tr *agent.Trace) *agent.Trace {
	if tr == nil {
		return nil
	}
	c := *tr
	c.ToolCalls, c.ToolResults = canonicalCalls(tr.ToolCalls), canonicalResults(tr.ToolResults)
	c.Conversation.PerTurn = make([]agent.Turn, len(tr.Conversation.PerTurn))
	for i, t := range tr.Conversation.PerTurn {
		t.ToolCalls, t.ToolResults = canonicalCalls(t.ToolCalls), canonicalResults(t.ToolResults)
		c.Conversation.PerTurn[i] = t
	}
	return &c
}

func canonicalCalls(in []agent.ToolCall) []agent.ToolCall {
	out := make([]agent.ToolCall, len(in))
	for i, call := range in {
		call.Args = canonical(call.Args)
		out[i] = call
	}
	return out
}

func canonicalResults(in []agent.ToolResult) []agent.ToolResult {
	out := make([]agent.ToolResult, len(in))
	for i, r := range in {
		r.Result = canonical(r.Result)
		out[i] = r
	}
	return out
}

// canonical is raw in canonical form, or raw as it is when it is not JSON.
func canonical(raw json.RawMessage) json.RawMessage {
	c, err := jsonx.Canonical(raw)
	if err != nil || c == nil {
		return raw
	}
	return c
}
