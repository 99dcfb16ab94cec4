package score

import (
	"reflect"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk/report"
)

func metric(name, agg string, threshold *float64, terms ...any) *config.DerivedMetric {
	m := &config.DerivedMetric{Name: name, Aggregation: agg, Threshold: threshold}
	for i := 0; i < len(terms); i += 2 {
		m.Terms = append(m.Terms, &config.MetricTerm{Ref: terms[i].(string), Weight: terms[i+1].(float64)})
	}
	return m
}

func TestMetrics(t *testing.T) {
	set := Entry{Name: "coverage", Weight: 1, Status: pass, Value: 2.0 / 3,
		Members: []Entry{named("rollback", 1, pass), named("canary", 1, pass), named("bluegreen", 1, fail)}}
	graded := Entry{Name: "judge", Weight: 1, Status: pass, Value: Value(pass, ptr(0.9))}
	entries := []Entry{named("a", 1, pass), named("b", 1, fail), set, graded, named("a", 1, fail)}
	for _, tc := range []struct {
		name    string
		metrics []*config.DerivedMetric
		want    []report.DerivedMetric
	}{
		{"weighted_sum", []*config.DerivedMetric{metric("s", WeightedSum, nil, "a", 2.0, "b", 3.0)},
			[]report.DerivedMetric{{Name: "s", Value: 2}}},
		{"weighted_average", []*config.DerivedMetric{metric("avg", WeightedAverage, nil, "a", 1.0, "b", 1.0)},
			[]report.DerivedMetric{{Name: "avg", Value: 0.5}}},
		{"a set's value is its internal fraction", []*config.DerivedMetric{metric("m", WeightedAverage, nil, "coverage", 1.0)},
			[]report.DerivedMetric{{Name: "m", Value: 2.0 / 3}}},
		{"set members are named assertions too", []*config.DerivedMetric{metric("m", WeightedSum, nil, "canary", 1.0, "bluegreen", 1.0)},
			[]report.DerivedMetric{{Name: "m", Value: 1}}},
		{"a graded matcher score is used", []*config.DerivedMetric{metric("m", WeightedSum, nil, "judge", 1.0)},
			[]report.DerivedMetric{{Name: "m", Value: 0.9}}},
		{"the first of two same-named assertions wins", []*config.DerivedMetric{metric("m", WeightedSum, nil, "a", 1.0)},
			[]report.DerivedMetric{{Name: "m", Value: 1}}},
		{"an unknown reference scores 0 and is reported",
			[]*config.DerivedMetric{metric("m", WeightedAverage, nil, "a", 1.0, "typo", 1.0, "also_typo", 2.0)},
			[]report.DerivedMetric{{Name: "m", Value: 0.25, Unresolved: []string{"typo", "also_typo"}}}},
		{"chained in declaration order",
			[]*config.DerivedMetric{
				metric("first", WeightedAverage, nil, "a", 1.0, "b", 1.0),
				metric("second", WeightedSum, nil, "first", 2.0, "a", 1.0),
			},
			[]report.DerivedMetric{{Name: "first", Value: 0.5}, {Name: "second", Value: 2}}},
		{"a metric shadows an entry of its name for later metrics",
			[]*config.DerivedMetric{metric("a", WeightedSum, nil, "b", 1.0), metric("m", WeightedSum, nil, "a", 1.0)},
			[]report.DerivedMetric{{Name: "a", Value: 0}, {Name: "m", Value: 0}}},
		{"gated: passed at the threshold", []*config.DerivedMetric{metric("g", WeightedAverage, ptr(0.5), "a", 1.0, "b", 1.0)},
			[]report.DerivedMetric{{Name: "g", Value: 0.5, Threshold: ptr(0.5), Passed: new(true)}}},
		{"gated: failed below", []*config.DerivedMetric{metric("g", WeightedAverage, ptr(0.6), "a", 1.0, "b", 1.0)},
			[]report.DerivedMetric{{Name: "g", Value: 0.5, Threshold: ptr(0.6), Passed: new(false)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Metrics(entries, tc.metrics)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v", got)
			}
			for i := range got {
				g, w := got[i], tc.want[i]
				if g.Name != w.Name || !near(g.Value, w.Value) || !reflect.DeepEqual(g.Unresolved, w.Unresolved) ||
					!reflect.DeepEqual(g.Threshold, w.Threshold) || !reflect.DeepEqual(g.Passed, w.Passed) {
					t.Errorf("metric %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
	if Metrics(entries, nil) != nil {
		t.Error("no metrics declared must give nil, so reports omit the field")
	}
}

// TestMetricsGateVerdict checks that a failing gated metric fails a legacy
// test whose assertions all pass (it names an unknown reference).
func TestMetricsGateVerdict(t *testing.T) {
	r := Verdict(Input{
		Entries: []Entry{named("ok", 1, pass)},
		Metrics: []*config.DerivedMetric{metric("m", WeightedAverage, ptr(0.9), "ok", 1.0, "okk", 1.0)},
	})
	if r.Status != fail || r.Reason == nil || r.Reason.Kind != "derived_metric" || r.Metrics[0].Unresolved[0] != "okk" {
		t.Fatalf("got %+v", r)
	}
	r = Verdict(Input{Entries: []Entry{named("ok", 1, errd)}, Metrics: []*config.DerivedMetric{metric("m", WeightedSum, nil, "ok", 1.0)}})
	if r.Status != errd || r.Metrics != nil {
		t.Fatalf("errored test: %+v", r)
	}
}

func TestRollups(t *testing.T) {
	tests := []report.Test{
		{DerivedMetrics: []report.DerivedMetric{{Name: "quality", Value: 1}, {Name: "speed", Value: 0.5}}},
		{},
		{DerivedMetrics: []report.DerivedMetric{{Name: "quality", Value: 0.5}}},
		{DerivedMetrics: []report.DerivedMetric{{Name: "quality", Value: 0}, {Name: "cost", Value: 3}}},
	}
	want := []report.MetricRollup{{Name: "quality", Mean: 0.5, Count: 3}, {Name: "speed", Mean: 0.5, Count: 1}, {Name: "cost", Mean: 3, Count: 1}}
	if got := Rollups(tests); !reflect.DeepEqual(got, want) {
		t.Fatalf("Rollups = %+v, want %+v", got, want)
	}
	if Rollups([]report.Test{{}, {}}) != nil {
		t.Error("no metrics must give nil rollups")
	}
}
