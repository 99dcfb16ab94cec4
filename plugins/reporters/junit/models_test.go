package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestModelCompatibilityIsAProperty(t *testing.T) {
	run := &report.Run{
		RunID: "r", Tool: report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		ModelCompatibility: []string{"claude-opus-4-7", "gpt-4o"},
		Tests: []report.Test{
			{ID: "a", Name: "a", File: "s.yml", Block: "tools", Status: report.StatusPassed},
		},
	}
	out := render(t, finished(run))
	doc := parse(t, out)
	if len(doc.Suites) != 1 || doc.Suites[0].prop("mcptest.model_compatibility") != "claude-opus-4-7, gpt-4o" {
		t.Fatalf("properties of %s", out)
	}
	validateXSD(t, out)
	run.ModelCompatibility = nil
	if doc := parse(t, render(t, finished(run))); doc.Suites[0].prop("mcptest.model_compatibility") != "" {
		t.Error("a run without model_compatibility has the property")
	}
}
