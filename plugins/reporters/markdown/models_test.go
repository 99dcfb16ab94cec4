package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestDocumentShowsModelCompatibility(t *testing.T) {
	run := &report.Run{
		ModelCompatibility: []string{"claude-opus-4-7", "gpt-4o`x"},
		Tests:              []report.Test{{ID: "a", Name: "a", Status: report.StatusPassed}},
	}
	run.Summarize()
	doc := document(run, fullDoc)
	checkDocument(t, doc)
	if want := "Model compatibility: `claude-opus-4-7`, ``gpt-4o`x``\n"; !strings.Contains(doc, want) {
		t.Errorf("document lacks %q:\n%s", want, doc)
	}
	run.ModelCompatibility = nil
	if strings.Contains(document(run, fullDoc), "Model compatibility") {
		t.Error("a run without model_compatibility shows the line")
	}
}
