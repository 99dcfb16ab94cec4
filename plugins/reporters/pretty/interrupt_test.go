package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestInterruptedRunSaysInterrupted: the summary line of a run a signal
// stopped (exit 130) leads with "interrupted:", so its counts are not
// read as a whole run; a run that finished has no such word.
func TestInterruptedRunSaysInterrupted(t *testing.T) {
	render := func(code int) string {
		var out bytes.Buffer
		r := &renderer{w: &out, seen: map[string]bool{}}
		run := &report.Run{Tests: []report.Test{
			{ID: "a", Name: "first passes", Status: report.StatusPassed},
			{ID: "b", Name: "never reached", Status: report.StatusSkipped},
		}}
		run.Summarize()
		run.ExitCode = code
		if err := r.finish(run); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got := render(report.ExitInterrupted); !strings.Contains(got, "\ninterrupted: 1 passed, 0 failed, 0 errored, 1 skipped (2 tests)") {
		t.Errorf("interrupted run:\n%s", got)
	}
	if got := render(0); strings.Contains(got, "interrupted") {
		t.Errorf("a finished run says interrupted:\n%s", got)
	}
}
