package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/agent"
)

func TestTraceTextIsBounded(t *testing.T) {
	big := json.RawMessage(`"` + strings.Repeat("x", 10_000) + `"`)
	tr := &agent.Trace{FinalResponse: "the answer"}
	for i := 0; i < 200; i++ {
		tr.ToolCalls = append(tr.ToolCalls, agent.ToolCall{Name: "t", Args: big})
		tr.ToolResults = append(tr.ToolResults, agent.ToolResult{Name: "t", Result: big, IsError: i == 0})
	}
	text := Candidate{Trace: tr}.Text()
	if len(text) > maxCandidate+len("…") {
		t.Fatalf("candidate text is %d bytes", len(text))
	}
	if !strings.Contains(text, "error result: ") {
		t.Fatal("an error result is not marked")
	}
	if !strings.HasSuffix(text, "Final reply:\nthe answer") {
		t.Fatal("a long transcript cut off the final reply")
	}
	small := &agent.Trace{FinalResponse: "done"}
	for i := 0; i < maxToolCalls+3; i++ {
		small.ToolCalls = append(small.ToolCalls, agent.ToolCall{Name: "t", Args: json.RawMessage(`{}`)})
	}
	text = Candidate{Trace: small}.Text()
	if !strings.Contains(text, "... 3 more calls not shown.") || !strings.HasSuffix(text, "Final reply:\ndone") {
		t.Fatalf("text:\n%s", text[len(text)-200:])
	}
}
