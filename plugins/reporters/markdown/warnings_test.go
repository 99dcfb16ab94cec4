package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// warnedRun is a run whose only finding is a SHOULD warning, with a
// failure written the way Go's encoder writes HTML characters.
func warnedRun(status report.Status) *report.Run {
	run := &report.Run{RunID: "w", Tests: []report.Test{
		{ID: "a", Name: "echo", File: "s.yml", Line: 3, Status: report.StatusPassed},
		{ID: "b", Name: "prompt errors", File: "s.yml", Line: 9, Block: "compliance", Status: status,
			Check: &report.Check{ID: "P01", Title: "prompt errors", Severity: "SHOULD"},
			Assertions: []report.Assertion{{Index: 0, Target: "prompts/get", Matcher: "SHOULD", Status: report.StatusFailed,
				Failure: json.RawMessage(`{"expected":"a -32602 error","actual":{"message":"\u003cb\u003ebad\u003c/b\u003e \u0026 worse"}}`)}}},
	}}
	run.Summarize()
	run.ExitCode = map[report.Status]int{report.StatusWarned: 0, report.StatusFailed: 1}[status]
	return run
}

// TestWarningsPass: a run whose only finding is a SHOULD warning passed
// with warnings, as its exit code says; made strict, it failed. Values
// show characters, not JSON escapes, still escaped for Markdown.
func TestWarningsPass(t *testing.T) {
	doc := document(warnedRun(report.StatusWarned), fullDoc)
	checkDocument(t, doc)
	for _, want := range []string{
		"## ✅ mcptest: passed with warnings\n", "1 passed, 0 failed, 1 warned, 0 errored",
		"| 🟡 warned | prompt errors (SHOULD) |",
		"`{\"message\":\"<b>bad</b> & worse\"}`",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, `\u003c`) || strings.Contains(doc, "failed\n") {
		t.Errorf("document shows JSON escapes or a failure:\n%s", doc)
	}
	strict := document(warnedRun(report.StatusFailed), fullDoc)
	if !strings.HasPrefix(strict, "## ❌ mcptest: failed\n") || strings.Contains(strict, "warn") {
		t.Errorf("a strict SHOULD failure must read failed:\n%s", strict)
	}
}
