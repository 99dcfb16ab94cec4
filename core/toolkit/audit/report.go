package audit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// ErrorKindNotCalled is the report Error kind of a tool the audit left
// out.
const ErrorKindNotCalled = "not_called"

// TestID is the report test id of a tool's audit.
func TestID(tool string) string { return "audit/" + tool }

// Tests renders the audit as report tests, one per tool: passed when
// healthy, failed when it crashed or timed out (under the check
// audit/crashed or audit/timed-out), skipped when not called.
func (r *Report) Tests(red *redact.Redactor, stderr string) []rpt.Test {
	var out []rpt.Test
	for _, e := range r.Entries {
		t := rpt.Test{ID: TestID(e.Tool.Name), Name: e.Tool.Name, Block: "audit", Server: toolkit.SuiteServerName, Tool: e.Tool.Name}
		if e.Skipped != "" {
			t.Status = rpt.StatusSkipped
			t.Error = &rpt.Error{Kind: ErrorKindNotCalled, Message: e.Skipped}
			out = append(out, t)
			continue
		}
		v := e.Result.Verdict
		t.DurationMS = float64(e.Result.Duration.Microseconds()) / 1000
		a := rpt.Assertion{Target: "tools/call " + string(e.Arguments), Matcher: "audit", Message: red.String(toolkit.Describe(v))}
		if c := toolkit.HealthCheck("audit", v); c != nil {
			t.Status, a.Status = rpt.StatusFailed, rpt.StatusFailed
			t.Check, a.Check = c, c
			a.Failure, _ = json.Marshal(map[string]any{
				"expected": "a result, an isError result or a -32602 error",
				"actual":   red.String(v.Kind + ": " + v.Detail),
				"note":     "arguments: " + string(e.Arguments),
			})
			if e.Result.Outcome != nil {
				t.Frames = toolkit.Frames(e.Result.Outcome.Frames, red)
			}
			t.Stderr = stderr
		} else {
			t.Status, a.Status = rpt.StatusPassed, rpt.StatusPassed
		}
		t.Assertions = []rpt.Assertion{a}
		out = append(out, t)
	}
	return out
}

// Table writes the per-tool table and the score.
func (r *Report) Table(w *strings.Builder) {
	fmt.Fprintf(w, "%-32s %-10s %9s  %s\n", "TOOL", "HEALTH", "MS", "DETAIL")
	for _, e := range r.Entries {
		if e.Skipped != "" {
			fmt.Fprintf(w, "%-32s %-10s %9s  %s\n", e.Tool.Name, "skipped", "-", "may be destructive (--include-destructive)")
			continue
		}
		v := e.Result.Verdict
		detail := v.Kind
		if v.Health != toolkit.Healthy && v.Detail != "" {
			detail += ": " + oneLine(v.Detail, 80)
		}
		fmt.Fprintf(w, "%-32s %-10s %9.1f  %s\n", e.Tool.Name, v.Health, float64(e.Result.Duration.Microseconds())/1000, detail)
	}
	fmt.Fprintf(w, "score %.0f%%: %d healthy, %d crashed, %d timed out, %d skipped", r.Score(), r.Healthy, r.Crashed, r.TimedOut, r.Skipped)
	if r.Restarts > 0 {
		fmt.Fprintf(w, " (server restarted %d time(s))", r.Restarts)
	}
	w.WriteString("\n")
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// StarterSuite returns a test per healthy tool that passes against the
// server as it is: the same arguments, expecting the answer it gave
// (isError false or true, or the -32602 rejection). Crashed, timed-out and
// skipped tools are listed in the returned note instead.
func (r *Report) StarterSuite() ([]toolkit.SuiteTest, string) {
	var tests []toolkit.SuiteTest
	var left []string
	for _, e := range r.Entries {
		if e.Skipped != "" {
			left = append(left, e.Tool.Name+" (not called: may be destructive)")
			continue
		}
		v := e.Result.Verdict
		st := toolkit.SuiteTest{Name: e.Tool.Name + " answers", Tool: e.Tool.Name, Arguments: e.Arguments}
		switch v.Kind {
		case "result":
			st.Expect = []toolkit.Expectation{{Target: "result.isError", Matcher: map[string]any{"exact": false}}}
		case "tool_error":
			st.Name = e.Tool.Name + " reports an error for these arguments"
			st.Expect = []toolkit.Expectation{{Target: "result.isError", Matcher: map[string]any{"exact": true}}}
		case "invalid_params":
			st.Name = e.Tool.Name + " rejects these arguments"
			st.Expect = []toolkit.Expectation{{Target: "error.code", Matcher: map[string]any{"exact": -32602}}}
		default:
			left = append(left, e.Tool.Name+" ("+string(v.Health)+")")
			continue
		}
		tests = append(tests, st)
	}
	note := ""
	if len(left) > 0 {
		note = "Left out: " + strings.Join(left, ", ")
	}
	return tests, note
}
