package report

import (
	"testing"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// TestMergeRecomputesRollups checks that merged shards get the rollups of
// the whole run, not those of one shard.
func TestMergeRecomputesRollups(t *testing.T) {
	shard := func(id string, v float64, index int) *rpt.Run {
		tests := []rpt.Test{{ID: id, Name: id, File: "s.yml", Status: rpt.StatusPassed,
			DerivedMetrics: []rpt.DerivedMetric{{Name: "quality", Value: v}}}}
		r := &rpt.Run{SchemaVersion: rpt.SchemaVersion, RunID: "r", Tests: tests, Shard: &rpt.Shard{Index: index, Total: 2},
			MetricRollups: []rpt.MetricRollup{{Name: "quality", Mean: v, Count: 1}}}
		return r
	}
	out, err := Merge([]*rpt.Run{shard("a", 1, 1), shard("b", 0.5, 2)}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.MetricRollups) != 1 || out.MetricRollups[0] != (rpt.MetricRollup{Name: "quality", Mean: 0.75, Count: 2}) {
		t.Fatalf("rollups = %+v", out.MetricRollups)
	}
}
