package report

import (
	"testing"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// TestMergeAddsUpCosts: merged eval shards add up their grades' costs
// (in total and per suite) and their --max-cost budgets, stopped when any
// shard's budget stopped a call; the evals a run left out are counted
// once, not once per shard.
func TestMergeAddsUpCosts(t *testing.T) {
	usd := func(v float64) *float64 { return &v }
	shard := func(id string, index int, cost, budget float64, stopped bool) *rpt.Run {
		return &rpt.Run{SchemaVersion: rpt.SchemaVersion, RunID: "r", Shard: &rpt.Shard{Index: index, Total: 2}, EvalsNotRun: 3,
			Costs: &rpt.Costs{TotalUSD: cost, MaxUSD: usd(budget), Stopped: stopped},
			Tests: []rpt.Test{{ID: id, Name: id, File: "s.yml", Status: rpt.StatusPassed,
				Eval: &rpt.Eval{Form: "text", Candidate: "response", Calls: 2, CostUSD: usd(cost), Passed: true}}}}
	}
	out, err := Merge([]*rpt.Run{shard("a", 1, 0.25, 1, false), shard("b", 2, 0.5, 1, true)}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := out.Costs
	if c == nil || c.TotalUSD != 0.75 || len(c.Suites) != 1 || c.Suites[0].USD != 0.75 || c.Calls != 4 ||
		c.MaxUSD == nil || *c.MaxUSD != 2 || !c.Stopped || out.EvalsNotRun != 3 {
		t.Fatalf("merged costs %+v, evals not run %d", c, out.EvalsNotRun)
	}
}
