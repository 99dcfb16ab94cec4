package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
	"github.com/mcptest/mcptest/sdk/report"
)

// renderTests writes tests as the reporter shows finished tests.
func renderTests(t *testing.T, color bool, tests ...report.Test) string {
	t.Helper()
	var out bytes.Buffer
	r := &renderer{w: &out, p: painter{color: color}, seen: map[string]bool{}}
	for i := range tests {
		if err := r.test(&tests[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out.String()
}

const wantTrajectory = `✗ FAIL  weather [gpt-4o] (40 ms)
    ✗ tool_calls[0].name › exact — the model should ask for the forecast first
        expected: "forecast"
        actual:   "echo"
    trajectory (gpt-4o, stopped: turn_budget (max_turns 2), 150 tokens, 0.42¢):
      user      What is the weather in Sacramento?
      assistant Let me check.
      tool call ✓ demo/echo({"message":"Sacramento"}) → Sacramento
      tool call ✗ demo/boom({}) → isError: the tool failed: <b>boom</b>
      assistant Still checking the <weather> & more.
`

// A failed agent test shows what the model did, step by step, after its
// failed assertions.
func TestFailedAgentTestShowsItsTrajectory(t *testing.T) {
	run := spanstest.AgentRun()
	if got := renderTests(t, false, run.Tests[0]); got != wantTrajectory {
		t.Errorf("got:\n%s\nwant:\n%s", got, wantTrajectory)
	}
	// A passing agent test is one line.
	pass := run.Tests[0]
	pass.Status, pass.Assertions = report.StatusPassed, nil
	if got := renderTests(t, false, pass); strings.Count(got, "\n") != 1 {
		t.Errorf("a passing agent test shows more than its line:\n%s", got)
	}
}

// Text from the model and the server cannot drive the terminal, and a
// long run shows its start and end with a count of what lies between.
func TestTrajectoryIsSafeAndBounded(t *testing.T) {
	run := spanstest.AgentRun()
	a := run.Tests[0].Agent
	a.Messages[0].Content = "hi \x1b[2J\x1b]0;title\x07 there"
	a.ToolCalls[0].TimedOut, a.ToolCalls[0].Fault, a.ToolCalls[0].DurationMS = true, "hung-search", 3000
	for i := 0; i < 50; i++ {
		a.Messages = append(a.Messages, report.AgentMessage{Role: "assistant", Content: fmt.Sprintf("step %d %s", i, strings.Repeat("x", 500)),
			ToolCalls: []report.AgentMessageToolCall{{Name: "echo"}}})
		a.ToolCalls = append(a.ToolCalls, report.AgentToolCall{Name: "echo", Server: "demo", Args: json.RawMessage(`{}`),
			Result: json.RawMessage(`{"content":[{"type":"image","data":"AAAA"}]}`)})
	}
	got := renderTests(t, true, run.Tests[0])
	if strings.Contains(got, "\x1b[2J") || strings.Contains(got, "\x1b]0") {
		t.Errorf("escape sequences reached the terminal: %q", got)
	}
	if !strings.Contains(got, "timed out after 3000 ms (fault hung-search)") {
		t.Errorf("the timed-out call is not shown:\n%s", got)
	}
	if !strings.Contains(got, "… 81 more steps (the JSON report has them)") || !strings.Contains(got, "step 49") || strings.Contains(got, "step 20 ") {
		t.Errorf("the long run is not cut in the middle:\n%s", got)
	}
	if !strings.Contains(got, "→ [image]") {
		t.Errorf("non-text content is not named:\n%s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if n := len([]rune(l)); n > 250 {
			t.Errorf("a %d-rune line: %q", n, l)
		}
	}
}
