package score

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestExitCodeWarnings: a warned test (a compliance check that broke only
// SHOULD requirements) does not fail the run; a MUST failure, a SHOULD
// failure made strict (status failed), or any other failed test does.
func TestExitCodeWarnings(t *testing.T) {
	should := report.Test{Status: report.StatusWarned, Check: &report.Check{ID: "P01", Severity: "SHOULD"}}
	strict := report.Test{Status: report.StatusFailed, Check: &report.Check{ID: "P01", Severity: "SHOULD"}}
	must := report.Test{Status: report.StatusFailed, Check: &report.Check{ID: "J06", Severity: "MUST"}}
	plain := report.Test{Status: report.StatusFailed}
	passed := report.Test{Status: report.StatusPassed, Check: &report.Check{ID: "J01", Severity: "SHOULD"}}
	for _, tc := range []struct {
		tests []report.Test
		want  int
	}{
		{[]report.Test{passed, should}, ExitPassed},
		{[]report.Test{passed, strict}, ExitFailed},
		{[]report.Test{should, must}, ExitFailed},
		{[]report.Test{should, plain}, ExitFailed},
		{[]report.Test{should, {Status: report.StatusErrored}}, ExitError},
	} {
		if got := ExitCode(&report.Run{Tests: tc.tests}); got != tc.want {
			t.Errorf("%+v: exit %d, want %d", tc.tests, got, tc.want)
		}
	}
	if !should.IsWarning() || strict.IsWarning() || must.IsWarning() || passed.IsWarning() || plain.IsWarning() {
		t.Error("IsWarning")
	}
}
