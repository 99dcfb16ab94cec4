package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestRenderScoreModel checks the drawing of a composition's branches, an
// assert-set's members, the combined score and the derived metrics.
func TestRenderScoreModel(t *testing.T) {
	score, threshold, setScore, setTh, q, qTh := 0.5, 0.75, 1.0/3, 0.6, 2.0/3, 0.7
	failed := false
	tr := report.Test{Name: "scored", Status: report.StatusFailed, DurationMS: 1, Score: &score, Threshold: &threshold,
		Error: &report.Error{Kind: "threshold", Message: "score 0.5 is below the threshold 0.75"},
		DerivedMetrics: []report.DerivedMetric{
			{Name: "quality", Value: q, Threshold: &qTh, Passed: &failed},
			{Name: "sum", Value: 2, Unresolved: []string{"typo"}},
		},
		Assertions: []report.Assertion{
			{Index: 0, Target: "result.text", Matcher: "allOf", Status: report.StatusFailed, Failure: json.RawMessage(
				`{"actual":"hi there","note":"1 of 2 branches failed; allOf needs all of them","branches":[` +
					`{"matcher":"contains","argument":"hi","status":"passed"},` +
					`{"matcher":"not","status":"failed","note":"the inner matcher passed, so not fails","branches":[{"matcher":"contains","argument":"there","status":"passed"}]},` +
					`{"matcher":"regex","argument":"^x","status":"failed","failure":{"expected":"^x","match":null}}]}`)},
			{Index: 1, Matcher: "assert-set", Name: "keywords", Status: report.StatusFailed, Score: &setScore, Threshold: &setTh,
				Failure: json.RawMessage(`{"expected":0.6,"actual":0.333,"note":"1 of 3 assertions passed"}`),
				Assertions: []report.Assertion{
					{Index: 0, Target: "result.text", Matcher: "icontains", Status: report.StatusPassed},
					{Index: 1, Target: "result.text", Matcher: "icontains", Status: report.StatusFailed, Failure: json.RawMessage(`{"expected":"canary","actual":"x"}`)},
					{Index: 2, Target: "result.text", Matcher: "regex", Status: report.StatusErrored, Error: "invalid argument: bad regex", Plugin: "text@1"},
				}},
		}}
	r := &renderer{p: painter{}, seen: map[string]bool{}}
	var b strings.Builder
	r.writeTest(&b, &tr)
	const want = `✗ FAIL  scored (1.0 ms)
    ✗ result.text › allOf
        actual: "hi there"
        note:   1 of 2 branches failed; allOf needs all of them
        branches:
          ✓ contains "hi"
          ✗ not — the inner matcher passed, so not fails
            ✓ contains "there"
          ✗ regex "^x"
              expected: "^x"
              match:    null
    ✗ assert-set keywords
        score:    0.333
        expected: 0.6
        actual:   0.333
        note:     1 of 3 assertions passed
        ✗ result.text › icontains
            expected: "canary"
            actual:   "x"
        ! result.text › regex
            error: invalid argument: bad regex [plugin text@1]
    score:  0.5 (threshold 0.75)
    metric: quality 0.667 (threshold 0.7, failed)
    metric: sum 2; unknown references counted as 0: typo
    error: threshold: score 0.5 is below the threshold 0.75
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
