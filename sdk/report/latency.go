package report

import (
	"math"
	"sort"
)

// LatencySummary is the soft latency budget of one suite file
// (performance.p95_latency_ms) against what its tests measured. A budget
// never changes a verdict or the exit code; reporters point at it.
type LatencySummary struct {
	// File is the suite file that sets the budget.
	File string `json:"file"`
	// BudgetMS is the suite's p95 budget.
	BudgetMS int `json:"budget_ms"`
	// Tests is how many of the file's tests had a latency measured (those
	// that reached a server; cache hits and skips have none).
	Tests int `json:"tests"`
	// P95MS is the 95th percentile of those latencies (nearest rank).
	P95MS float64 `json:"p95_ms"`
	// Over counts the tests whose own latency exceeded the budget.
	Over int `json:"over"`
	// Breached is set when P95MS exceeds the budget.
	Breached bool `json:"breached"`
}

// OverLatencyBudget reports whether the test took longer than its suite's
// p95 latency budget.
func (t *Test) OverLatencyBudget() bool {
	return t.LatencyMS != nil && t.LatencyBudgetMS > 0 && *t.LatencyMS > float64(t.LatencyBudgetMS)
}

// latencySummaries computes one summary per suite file whose tests carry
// a latency budget, in first-seen order.
func latencySummaries(tests []Test) []LatencySummary {
	var out []LatencySummary
	samples := map[int][]float64{}
	at := map[string]int{}
	for i := range tests {
		t := &tests[i]
		if t.LatencyMS == nil || t.LatencyBudgetMS <= 0 {
			continue
		}
		j, ok := at[t.File]
		if !ok {
			j = len(out)
			at[t.File] = j
			out = append(out, LatencySummary{File: t.File, BudgetMS: t.LatencyBudgetMS})
		}
		samples[j] = append(samples[j], *t.LatencyMS)
		if t.OverLatencyBudget() {
			out[j].Over++
		}
	}
	for j := range out {
		s := samples[j]
		sort.Float64s(s)
		out[j].Tests = len(s)
		out[j].P95MS = s[int(math.Ceil(0.95*float64(len(s))))-1]
		out[j].Breached = out[j].P95MS > float64(out[j].BudgetMS)
	}
	return out
}
