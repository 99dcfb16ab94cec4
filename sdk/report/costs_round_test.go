package report

import "testing"

func TestCostsAreRoundedToANanoDollar(t *testing.T) {
	// 0.1 + 0.2 adds up to 0.30000000000000004 in float64.
	a, b := 0.1, 0.2
	tests := []Test{
		{File: "a.yml", Eval: &Eval{CostUSD: &a, Calls: 1}},
		{File: "a.yml", Eval: &Eval{CostUSD: &b, Calls: 1}},
	}
	got := costSummary(tests, nil)
	if got == nil || got.TotalUSD != 0.3 || got.Suites[0].USD != 0.3 {
		t.Fatalf("costs = %+v, want total and suite 0.3", got)
	}
}
