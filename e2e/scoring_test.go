package e2e

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	corereport "github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk/report"
)

// TestSuiteCompositionExample runs examples/suite-composition.yml through
// the real plugins and checks the scores docs/scoring.md promises, in the
// JSON report (validated against its schema by ReadRun).
func TestSuiteCompositionExample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestIn(t, filepath.Dir(binDir), nil, "run", "--reporter", "pretty", "--reporter", "json="+out,
		filepath.Join(root, "examples", "suite-composition.yml"))
	if r.code != 0 {
		t.Fatalf("the example failed:\n%s", r)
	}
	mustContain(t, "stdout", r.stdout, "7 passed", "0 failed")
	run, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]report.Test{}
	for _, tr := range run.Tests {
		tests[tr.Name] = tr
	}
	near := func(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-9 }

	w := tests["weights decide the combined score"]
	if !near(w.Score, 0.75) || !near(w.Threshold, 0.7) || !near(w.Assertions[0].Weight, 2) {
		t.Errorf("weights: %+v", w)
	}
	set := tests["an assert-set passes at two of three"].Assertions[0]
	if set.Matcher != "assert-set" || set.Name != "keyword-coverage" || !near(set.Score, 2.0/3) || len(set.Assertions) != 3 {
		t.Errorf("assert-set: %+v", set)
	}
	if tr := tests["an assert-set passes at two of three"]; tr.Score != nil || tr.Threshold != nil {
		t.Errorf("a test without a threshold reports no score: %+v", tr)
	}
	if tr := tests["three of four is good enough"]; !near(tr.Score, 0.75) || !near(tr.Threshold, 0.75) {
		t.Errorf("three of four: %+v", tr)
	}
	if tr := tests["composed matchers"]; len(tr.Assertions) != 3 || tr.Assertions[0].Matcher != "allOf" || tr.Assertions[1].Matcher != "not" {
		t.Errorf("composed: %+v", tr.Assertions)
	}
	d := tests["a derived metric gates the test"]
	if !near(d.Score, 2.0/3) || len(d.DerivedMetrics) != 1 {
		t.Fatalf("derived: %+v", d)
	}
	if q := d.DerivedMetrics[0]; q.Name != "quality" || math.Abs(q.Value-2.0/3) > 1e-9 || q.Passed == nil || !*q.Passed {
		t.Errorf("quality: %+v", q)
	}
	c := tests["metrics chain in declaration order"]
	if len(c.DerivedMetrics) != 2 || c.DerivedMetrics[0].Value != 1 || c.DerivedMetrics[1].Name != "overall" || c.DerivedMetrics[1].Value != 1 {
		t.Errorf("chained: %+v", c.DerivedMetrics)
	}
	var steps []string
	for _, a := range tests["budgets for the whole step"].Assertions {
		steps = append(steps, a.Matcher+":"+string(a.Status))
	}
	if got := strings.Join(steps, " "); got != "exact:passed exact:passed max_duration_ms:passed max_response_tokens:passed" {
		t.Errorf("step checks: %s", got)
	}
	if len(run.MetricRollups) != 2 || run.MetricRollups[0].Name != "quality" || run.MetricRollups[0].Count != 2 ||
		math.Abs(run.MetricRollups[0].Mean-(2.0/3+1)/2) > 1e-9 || run.MetricRollups[1] != (report.MetricRollup{Name: "overall", Mean: 1, Count: 1}) {
		t.Errorf("rollups: %+v", run.MetricRollups)
	}
}

// TestScoreModelFailures runs the spec's derived-metric example, a failing
// composition and a bad argument deep in a composition, and checks the
// verdicts, the exit codes and what the pretty reporter shows.
func TestScoreModelFailures(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: blended quality score
    server: demo
    tool: echo
    args: {message: "see the sources"}
    threshold: 0.5
    expect:
      - {target: "result.content[0].text", matcher: {icontains: sources}, name: cites_sources}
      - {target: "result.content[0].text", matcher: {regex: "^[A-Z]"}, name: well_formed}
    derivedMetrics:
      - name: quality
        threshold: 0.7
        value: {weighted_average: [{ref: cites_sources, weight: 2.0}, {ref: well_formed, weight: 1.0}]}
  - name: composition fails
    server: demo
    tool: json_blob
    expect:
      - target: "result.content[0].text"
        matcher: {allOf: [{anyOf: [{contains: nope}, {regex: "^\\["}]}, {not: {contains: tags}}]}
`)
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "run", "--reporter", "pretty", "--reporter", "json="+out, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	mustContain(t, "pretty output", r.stdout,
		`error: derived_metric: derived metric "quality" is 0.667, below its threshold 0.7`,
		"metric: quality 0.667 (threshold 0.7, failed)",
		"note:   2 of 2 branches failed; allOf needs all of them",
		"✗ anyOf — none of the 2 branches passed; anyOf needs at least one",
		"✗ not — the inner matcher passed, so not fails",
		`✓ contains "tags"`)
	run, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	q := run.Tests[0]
	if q.Status != report.StatusFailed || q.Score == nil || *q.Score != 0.5 || len(q.DerivedMetrics) != 1 ||
		math.Abs(q.DerivedMetrics[0].Value-2.0/3) > 1e-9 || *q.DerivedMetrics[0].Passed {
		t.Errorf("derived example: %+v", q)
	}

	bad := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: bad inner argument
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - {target: "result.content[0].text", matcher: {not: {anyOf: [{contains: a}, {regex: "("}]}}}
`)
	r = mcptest(t, "run", bad)
	if r.code != 2 || !strings.Contains(r.stderr+r.stdout, "/tools/0/expect/0/matcher/not/anyOf/1") {
		t.Errorf("a bad argument inside a composition: exit %d\n%s", r.code, r)
	}
}
