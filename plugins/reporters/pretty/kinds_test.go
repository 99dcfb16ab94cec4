package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestKindsAndWarnings renders list, completion and compliance tests of a
// suite: each is labelled with its kind, and a compliance check that broke
// only a SHOULD requirement reads as a warning, counted apart.
func TestKindsAndWarnings(t *testing.T) {
	tests := []report.Test{
		{ID: "a", Name: "every tool", File: "s.yml", Block: "lists", Status: report.StatusPassed, DurationMS: 2},
		{ID: "b", Name: "a city", File: "s.yml", Block: "completions", Status: report.StatusPassed, DurationMS: 2},
		{ID: "c", Name: "prompt errors", File: "s.yml", Block: "compliance", Status: report.StatusWarned, DurationMS: 2,
			Check: &report.Check{ID: "P01", Severity: "SHOULD"}},
		{ID: "d", Name: "invalid requests", File: "s.yml", Block: "compliance", Status: report.StatusFailed, DurationMS: 2,
			Check: &report.Check{ID: "J06", Severity: "MUST"}},
		// A test of `mcptest compliance run` has no suite file: no label.
		{ID: "e", Name: "J01 ids", Block: "compliance", Status: report.StatusPassed, DurationMS: 2,
			Check: &report.Check{ID: "J01", Severity: "MUST"}},
	}
	run := &report.Run{Tests: tests, DurationMS: 10}
	run.Summarize()
	var buf bytes.Buffer
	r := &renderer{p: painter{}, w: &buf, seen: map[string]bool{}}
	if err := r.finish(run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// --strict: the same SHOULD failure, status failed, is a failure.
	run.Tests[2].Status = report.StatusFailed
	run.Summarize()
	buf.Reset()
	r = &renderer{p: painter{}, w: &buf, seen: map[string]bool{}}
	if err := r.finish(run); err != nil {
		t.Fatal(err)
	}
	if strict := buf.String(); !strings.Contains(strict, "3 passed, 2 failed, 0 errored, 0 skipped (5 tests)") || !strings.Contains(strict, "✗ FAIL  prompt errors [compliance]") {
		t.Errorf("a strict SHOULD failure must read as a failure:\n%s", strict)
	}
	for _, want := range []string{
		"✓ PASS  every tool [list]", "✓ PASS  a city [completion]",
		"! WARN  prompt errors [compliance]", "✗ FAIL  invalid requests [compliance]",
		"✓ PASS  J01 ids (", "3 passed, 1 failed, 1 warned, 0 errored, 0 skipped (5 tests)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
