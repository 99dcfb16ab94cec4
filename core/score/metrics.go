package score

import (
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk/report"
)

// The aggregations a derived metric's value takes.
const (
	WeightedSum     = "weighted_sum"
	WeightedAverage = "weighted_average"
)

// Metrics computes a test's derived metrics in declaration order. A term
// refers by name to an assertion (a top-level one or a member of an
// assert-set), an assert-set, or a metric computed before it; when several
// entries share a name the first declared wins, and a metric shadows an
// entry of its own name for the metrics after it. A name that resolves to
// nothing scores 0 and is listed in the metric's Unresolved, so a typo is
// visible rather than silent. A metric with a threshold gets Passed.
func Metrics(entries []Entry, metrics []*config.DerivedMetric) []report.DerivedMetric {
	if len(metrics) == 0 {
		return nil
	}
	values := map[string]float64{}
	var bind func([]Entry)
	bind = func(es []Entry) {
		for _, e := range es {
			if e.Name != "" {
				if _, dup := values[e.Name]; !dup {
					values[e.Name] = e.Value
				}
			}
			bind(e.Members)
		}
	}
	bind(entries)
	out := make([]report.DerivedMetric, 0, len(metrics))
	for _, m := range metrics {
		dm := report.DerivedMetric{Name: m.Name}
		var sum, weights float64
		for _, t := range m.Terms {
			v, ok := values[t.Ref]
			if !ok {
				dm.Unresolved = append(dm.Unresolved, t.Ref)
			}
			sum += t.Weight * v
			weights += t.Weight
		}
		dm.Value = sum
		if m.Aggregation == WeightedAverage && weights > 0 {
			dm.Value = sum / weights
		}
		if m.Threshold != nil {
			th := *m.Threshold
			passed := Reaches(dm.Value, th)
			dm.Threshold, dm.Passed = &th, &passed
		}
		values[m.Name] = dm.Value
		out = append(out, dm)
	}
	return out
}
