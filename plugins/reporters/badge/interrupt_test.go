package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestInterruptedRunSaysInterrupted: a run a signal stopped (exit 130)
// reads "interrupted", with what it left skipped, never "run error" and
// never green.
func TestInterruptedRunSaysInterrupted(t *testing.T) {
	mk := func(withError bool, sts ...report.Status) []report.Event {
		ev := finished(sts...)
		ev[0].Run.ExitCode = report.ExitInterrupted
		if withError {
			ev[0].Run.Errors = []report.RunError{{Source: report.ErrorSourceInterrupt, Message: "interrupted by SIGINT"}}
		}
		return ev
	}
	for _, tc := range []struct {
		events []report.Event
		want   string
	}{
		{mk(true, report.StatusPassed, report.StatusSkipped, report.StatusSkipped), "interrupted, 2 skipped"},
		{mk(false, report.StatusPassed, report.StatusSkipped), "interrupted, 1 skipped"},
		{mk(true, report.StatusFailed, report.StatusSkipped), "interrupted, 1 failed, 1 skipped"},
	} {
		b := renderBadge(t, tc.events)
		if b.Message != tc.want || b.Color != colorErrored {
			t.Errorf("badge %+v, want %q in %s", b, tc.want, colorErrored)
		}
	}
}
