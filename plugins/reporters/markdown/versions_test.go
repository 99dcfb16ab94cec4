package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestDocumentShowsProtocolRevisions(t *testing.T) {
	run := &report.Run{
		Servers: []report.Server{
			{Name: "mem|x", TargetVersion: "2025-11-25", ProtocolVersion: "2025-06-18"},
			{Name: "mem|x", TargetVersion: "2026-07-28", Error: "does not speak it"},
		},
		Tests: []report.Test{
			{ID: "a [2025-11-25]", Name: "a [2025-11-25]", Status: report.StatusPassed, ProtocolVersion: "2025-11-25"},
			{ID: "a [2026-07-28]", Name: "a [2026-07-28]", Status: report.StatusErrored, ProtocolVersion: "2026-07-28"},
		},
	}
	run.Summarize()
	doc := document(run, fullDoc)
	md := checkDocument(t, doc)
	var rows [][]string
	for _, tb := range md.tables {
		if len(tb.header) > 0 && strings.TrimSpace(tb.header[0]) == "Revision" {
			rows = tb.rows
		}
	}
	if len(rows) != 2 {
		t.Fatalf("no revision table with 2 rows:\n%s", doc)
	}
	want := []string{
		"| `2025-11-25` | 1 | 0 | 0 | 0 | 0 | 1 | mem\\|x spoke `2025-06-18` |",
		"| `2026-07-28` | 0 | 0 | 0 | 1 | 0 | 1 | mem\\|x did not start |",
	}
	for _, w := range want {
		if !strings.Contains(doc, w+"\n") {
			t.Errorf("document lacks %q:\n%s", w, doc)
		}
	}

	run.VersionSummaries = nil
	if strings.Contains(document(run, fullDoc), "Protocol revisions") {
		t.Error("a run without target_versions shows the revision table")
	}
}

func TestDocumentShowsLatencyBudgets(t *testing.T) {
	slow, fast := 900.0, 20.0
	run := &report.Run{Tests: []report.Test{
		{ID: "a", Name: "a", File: "s|1.yml", Status: report.StatusPassed, LatencyMS: &slow, LatencyBudgetMS: 500},
		{ID: "b", Name: "b", File: "s|1.yml", Status: report.StatusPassed, LatencyMS: &fast, LatencyBudgetMS: 500},
	}}
	run.Summarize()
	doc := document(run, fullDoc)
	checkDocument(t, doc)
	if want := "| `s\\|1.yml` | 900 ms | 500 ms | 2 | 1 | **over budget** |\n"; !strings.Contains(doc, want) {
		t.Errorf("document lacks %q:\n%s", want, doc)
	}
	run.Latency = nil
	if strings.Contains(document(run, fullDoc), "Latency budgets") {
		t.Error("a run without budgets shows the latency table")
	}
}
