package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestInterruptedRunSaysInterrupted: the verdict of a run a signal
// stopped (exit 130, the rest skipped) is "interrupted", not "errored".
func TestInterruptedRunSaysInterrupted(t *testing.T) {
	run := &report.Run{RunID: "i", Tests: []report.Test{
		{ID: "a", Name: "first passes", Status: report.StatusPassed},
		{ID: "b", Name: "never reached", Status: report.StatusSkipped,
			Error: &report.Error{Kind: report.ErrorKindInterrupted, Message: "run interrupted before the test started"}},
	}, Errors: []report.RunError{{Source: report.ErrorSourceInterrupt, Message: "interrupted by SIGINT"}}}
	run.Summarize()
	run.ExitCode = report.ExitInterrupted
	doc := parseHTML(t, renderRun(t, run))
	if v := all(doc, byClass("verdict")); len(v) != 1 || text(v[0]) != "interrupted" {
		t.Errorf("verdict of an interrupted run is not \"interrupted\"")
	}
}
