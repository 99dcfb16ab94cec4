package findings

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// A failed eval is one finding under its own rule, summarised by its
// score and gate; its details carry the criteria and tree walk. A
// deferred eval is no finding, and a failed judged metric is an
// assertion finding with its grade.
func TestEvalFindings(t *testing.T) {
	got := map[string]Finding{}
	for _, f := range Collect(reporttest.Evals().Tests) {
		got[f.Test.Name] = f
	}
	if len(got) != 4 {
		t.Errorf("%d findings, want 4 (two evals, the agent metric, the failed trial)", len(got))
	}
	if _, ok := got[reporttest.EvalDeferred]; ok {
		t.Error("a deferred eval is a finding")
	}
	g := got[reporttest.EvalGatesFailed]
	if g.RuleID() != RuleEvalFailed || !strings.Contains(g.Summary(), "eval failed with score 0.55 (threshold 0.7): required criterion") {
		t.Errorf("gates: %s %q", g.RuleID(), g.Summary())
	}
	if d := strings.Join(g.Details(), "\n"); !strings.Contains(d, `guard tripped`) || !strings.Contains(d, `"status 503" NOT found`) {
		t.Errorf("gates details:\n%s", d)
	}
	tree := got[reporttest.EvalTreeFailed]
	if d := strings.Join(tree.Details(), "\n"); !strings.Contains(d, "leaf 0.4: vague about timing") {
		t.Errorf("tree details:\n%s", d)
	}
	m := got[reporttest.EvalAgentMetrics]
	if m.RuleID() != RuleAssertionPrefix+"plan_quality" || !strings.Contains(strings.Join(m.Details(), "\n"), "metric plan_quality failed") {
		t.Errorf("metric: %s %v", m.RuleID(), m.Details())
	}
}
