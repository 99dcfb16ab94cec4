package report

import "testing"

func TestCostsAreRoundedToANanoDollar(t *testing.T) {
	// 0.0031 three times adds up to 0.009299999999999998 in float64.
	c := 0.0031
	var tests []Test
	for i := 0; i < 3; i++ {
		tests = append(tests, Test{File: "a.yml", Eval: &Eval{CostUSD: &c, Calls: 1}})
	}
	got := costSummary(tests, nil)
	if got == nil || got.TotalUSD != 0.0093 || got.Suites[0].USD != 0.0093 {
		t.Fatalf("costs = %+v, want total and suite 0.0093", got)
	}
}
