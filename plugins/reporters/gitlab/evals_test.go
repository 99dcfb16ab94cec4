package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// A graded run: failed evals are major issues whose long description is
// the whole grade, the deferred eval is no issue, the failed trial says
// how its test did over all trials, and the flaky test and each suite's
// cost are info issues.
func TestEvals(t *testing.T) {
	issues := decode(t, render(t, finished(reporttest.Evals())))
	byCheck := map[string][]issue{}
	for _, is := range issues {
		byCheck[is.CheckName] = append(byCheck[is.CheckName], is)
		if strings.Contains(is.Description, reporttest.EvalDeferred) {
			t.Errorf("the deferred eval is an issue: %+v", is)
		}
	}
	evals := byCheck["mcptest/eval-failed"]
	if len(evals) != 3 {
		t.Fatalf("%d eval issues, want 3: %+v", len(evals), issues)
	}
	gates := evals[0]
	if gates.Severity != severityMajor || gates.Content == nil || !strings.Contains(gates.Content.Body, "guard tripped") ||
		!strings.Contains(gates.Description, "eval failed with score 0.55 (threshold 0.7)") {
		t.Errorf("failed eval: %+v", gates)
	}
	if trial := evals[2]; !strings.Contains(trial.Description, "[2/3 trials passed, flaky (passed, failed, passed)]") {
		t.Errorf("failed trial: %q", trial.Description)
	}
	if m := byCheck["mcptest/assertion/plan_quality"]; len(m) != 1 || m[0].Content == nil || !strings.Contains(m[0].Content.Body, "metric plan_quality failed") {
		t.Errorf("judged metric: %+v", m)
	}
	if f := byCheck[checkFlaky]; len(f) != 1 || f[0].Severity != severityInfo || f[0].Location.Lines.Begin != 90 ||
		!strings.Contains(f[0].Description, "flaky test flaky summary: 2/3 trials passed") {
		t.Errorf("flaky: %+v", f)
	}
	costs := byCheck[checkCost]
	if len(costs) != 2 || costs[0].Location.Path != reporttest.EvalSuite || !strings.Contains(costs[0].Description, "cost $0.0086 (run: cost $0.0093") {
		t.Errorf("costs: %+v", costs)
	}
	// Fingerprints are unique within the report.
	seen := map[string]bool{}
	for _, is := range issues {
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s twice", is.Fingerprint)
		}
		seen[is.Fingerprint] = true
	}
}
