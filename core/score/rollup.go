package score

import "github.com/mcptest/mcptest/sdk/report"

// Rollups summarises the derived metrics of a run's tests: for each metric
// name, in the order names first appear, the mean of its values over the
// tests that reported it and how many did. Nil when no test reported one,
// so the reports of runs without derived metrics keep their shape.
func Rollups(tests []report.Test) []report.MetricRollup {
	var out []report.MetricRollup
	idx := map[string]int{}
	sums := []float64{}
	for i := range tests {
		for _, m := range tests[i].DerivedMetrics {
			j, ok := idx[m.Name]
			if !ok {
				j = len(out)
				idx[m.Name] = j
				out = append(out, report.MetricRollup{Name: m.Name})
				sums = append(sums, 0)
			}
			sums[j] += m.Value
			out[j].Count++
		}
	}
	for j := range out {
		out[j].Mean = sums[j] / float64(out[j].Count)
	}
	return out
}
