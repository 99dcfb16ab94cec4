package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestPartialBadge: a merged report missing shards says so on the badge,
// after the usual counts (the run crosses the plugin boundary, so this
// also checks that the field reaches the plugin).
func TestPartialBadge(t *testing.T) {
	events := finished(report.StatusPassed, report.StatusPassed)
	events[0].Run.Partial = &report.Partial{MissingShards: []int{3}, ShardTotal: 4}
	b := renderBadge(t, events)
	if want := "2/2 passed (partial: shard 3 of 4 missing)"; b.Message != want {
		t.Errorf("message = %q, want %q", b.Message, want)
	}
}
