package report

import (
	"slices"
	"testing"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// TestMergeKeepsModelCompatibility: merged shards list every model of
// every shard once, in first-seen order.
func TestMergeKeepsModelCompatibility(t *testing.T) {
	shard := func(id string, index int, models ...string) *rpt.Run {
		return &rpt.Run{SchemaVersion: rpt.SchemaVersion, RunID: "r", ModelCompatibility: models,
			Shard: &rpt.Shard{Index: index, Total: 3},
			Tests: []rpt.Test{{ID: id, Name: id, File: "s.yml", Status: rpt.StatusPassed}}}
	}
	out, err := Merge([]*rpt.Run{shard("a", 1, "m1", "m2"), shard("b", 2, "m2", "m3"), shard("c", 3)}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.ModelCompatibility, []string{"m1", "m2", "m3"}) {
		t.Fatalf("model_compatibility = %q", out.ModelCompatibility)
	}
}
