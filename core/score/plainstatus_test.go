package score

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestPlainStatusAgreesWithVerdict checks PlainStatus against Verdict
// without a threshold or metrics on every sequence of up to four
// statuses, "" (an assertion not yet judged) included: the runner takes
// PlainStatus instead of Verdict for such tests, so the two must never
// differ.
func TestPlainStatusAgreesWithVerdict(t *testing.T) {
	statuses := []report.Status{"", report.StatusPassed, report.StatusFailed, report.StatusWarned,
		report.StatusErrored, report.StatusSkipped, report.StatusDeferred}
	var walk func(as []report.Assertion)
	checked := 0
	walk = func(as []report.Assertion) {
		entries := make([]Entry, len(as))
		for i, a := range as {
			entries[i] = Entry{Weight: 1, Status: a.Status, Value: Value(a.Status, nil)}
		}
		want := Verdict(Input{Entries: entries})
		if got := PlainStatus(as); got != want.Status {
			t.Errorf("%v: PlainStatus %q, Verdict %q", as, got, want.Status)
		}
		checked++
		if len(as) == 4 {
			return
		}
		for _, s := range statuses {
			walk(append(as[:len(as):len(as)], report.Assertion{Status: s}))
		}
	}
	walk(nil)
	if checked != 1+7+49+343+2401 {
		t.Fatalf("checked %d sequences", checked)
	}
}
