package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestPartialHeader: the summary line of a merged report missing shards
// names them.
func TestPartialHeader(t *testing.T) {
	run := &report.Run{Tests: []report.Test{{ID: "a", Name: "a", File: "s.yml", Status: report.StatusPassed}},
		Partial: &report.Partial{MissingShards: []int{2, 3}, ShardTotal: 4}}
	run.Summarize()
	doc := document(run, fullDoc)
	checkDocument(t, doc)
	if !strings.Contains(doc, "⚠️ partial: shards 2, 3 of 4 missing") {
		t.Errorf("no partial note in:\n%s", doc)
	}
}
