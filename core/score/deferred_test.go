package score

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

const deferred = report.StatusDeferred

// An assertion waiting for a model key makes the test deferred, never
// passed; a certain failure or an error still wins, and an assert-set with
// a deferred member is deferred.
func TestDeferredEntries(t *testing.T) {
	gate := Entry{Weight: 1, Status: fail, Gate: true}
	for _, c := range []struct {
		name    string
		in      Input
		want    report.Status
		noScore bool
	}{
		{"alone", Input{Entries: []Entry{e(1, deferred)}}, deferred, true},
		{"beside a pass", Input{Entries: []Entry{e(1, pass), e(1, deferred)}}, deferred, true},
		{"beside a failure (no threshold)", Input{Entries: []Entry{e(1, fail), e(1, deferred)}}, fail, false},
		{"beside an error", Input{Entries: []Entry{e(1, deferred), e(1, errd)}}, errd, true},
		{"threshold: the score is unknown", Input{Entries: []Entry{e(1, fail), e(3, deferred)}, Threshold: ptr(0.5)}, deferred, true},
		{"threshold: a failed gate fails", Input{Entries: []Entry{e(1, deferred), gate}, Threshold: ptr(0.5)}, fail, false},
	} {
		r := Verdict(c.in)
		if r.Status != c.want || (c.noScore && r.Score != nil) {
			t.Errorf("%s: got %+v, want %s", c.name, r, c.want)
		}
	}
	if _, st := Set([]Entry{e(1, pass), e(1, deferred)}, 0.5); st != deferred {
		t.Errorf("set with a deferred member: %s", st)
	}
	if _, st := Set([]Entry{e(1, deferred), e(1, errd)}, 0.5); st != errd {
		t.Errorf("set with an errored member: %s", st)
	}
	as := []report.Assertion{{Status: pass}, {Status: deferred}}
	if st := TestStatus(as); st != deferred {
		t.Errorf("legacy status: %s", st)
	}
	if st := TestStatus(append(as, report.Assertion{Status: fail})); st != fail {
		t.Errorf("legacy status with a failure: %s", st)
	}
	if code := ExitCode(&report.Run{Tests: []report.Test{{Status: pass}, {Status: deferred}}}); code != ExitPassed {
		t.Errorf("a deferred test exits %d", code)
	}
}
