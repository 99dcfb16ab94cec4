package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestFailedHooksAreListed(t *testing.T) {
	var out bytes.Buffer
	r := &renderer{w: &out, seen: map[string]bool{}}
	run := &report.Run{
		Hooks: []report.Hook{
			{Phase: report.HookBeforeAll, Command: "./seed.sh", Status: report.StatusPassed},
			{Phase: report.HookAfterAll, Command: "./teardown.sh", Status: report.StatusFailed, Error: "exited with status 5", Stderr: "db busy\n"},
		},
		Tests: []report.Test{{ID: "a", Name: "lists tools", Status: report.StatusPassed,
			Hooks: []report.Hook{{Phase: report.HookAfterEach, Command: "./snap.sh", Status: report.StatusFailed, Error: "timed out after 30s"}}}},
	}
	if err := r.finish(run); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"hook failures:", `hook afterAll "./teardown.sh": exited with status 5`, "db busy",
		`hook afterEach "./snap.sh" (test "lists tools"): timed out after 30s`} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "seed.sh") {
		t.Errorf("a passing hook is listed:\n%s", got)
	}
}
