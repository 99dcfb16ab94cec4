package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// interruptedRun is a run a SIGINT stopped after one test passed: the
// rest are skipped, one run error names the signal, exit 130.
func interruptedRun() *report.Run {
	skip := &report.Error{Kind: report.ErrorKindInterrupted, Message: "run interrupted before the test started"}
	run := &report.Run{RunID: "i", Tests: []report.Test{
		{ID: "a", Name: "first passes", File: "s.yml", Line: 3, Status: report.StatusPassed},
		{ID: "b", Name: "never reached", File: "s.yml", Line: 9, Status: report.StatusSkipped, Error: skip},
	}, Errors: []report.RunError{{Source: report.ErrorSourceInterrupt, Message: "interrupted by SIGINT"}}}
	run.Summarize()
	run.ExitCode = report.ExitInterrupted
	return run
}

// TestInterruptedRunSaysInterrupted: the heading of a run a signal stopped
// says interrupted, as exit 130 does, never errored or passed.
func TestInterruptedRunSaysInterrupted(t *testing.T) {
	doc := document(interruptedRun(), fullDoc)
	checkDocument(t, doc)
	if !strings.HasPrefix(doc, "## ⏹️ mcptest: interrupted\n") {
		t.Errorf("heading %q", strings.SplitN(doc, "\n", 2)[0])
	}
	// The same run saved by an older mcptest, known only by its exit code.
	run := interruptedRun()
	run.Errors = nil
	if doc := document(run, fullDoc); !strings.HasPrefix(doc, "## ⏹️ mcptest: interrupted\n") {
		t.Errorf("heading by exit code %q", strings.SplitN(doc, "\n", 2)[0])
	}
}
