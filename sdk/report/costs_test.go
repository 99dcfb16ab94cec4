package report

import "testing"

// TestCostsCountSetMembers: a graded assertion inside an assert-set adds
// its cost and calls to the run's costs like one at the top level.
func TestCostsCountSetMembers(t *testing.T) {
	usd := func(v float64) *float64 { return &v }
	r := Run{Tests: []Test{{File: "a.yml", Status: StatusPassed, Assertions: []Assertion{
		{Eval: &Eval{Calls: 1, CostUSD: usd(0.25)}},
		{Matcher: "assert-set", Assertions: []Assertion{
			{Eval: &Eval{Calls: 2, CachedCalls: 1, CostUSD: usd(0.5)}},
			{},
		}},
	}}}}
	r.Summarize()
	c := r.Costs
	if c == nil || c.TotalUSD != 0.75 || c.Calls != 3 || c.CachedCalls != 1 || len(c.Suites) != 1 || c.Suites[0].USD != 0.75 {
		t.Fatalf("costs = %+v", c)
	}
}
