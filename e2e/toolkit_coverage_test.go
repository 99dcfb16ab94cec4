package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestCoverageDemo counts which of the demo's tools, resources and prompts
// a suite touches: touched ones pass, untouched ones are warnings, a read
// of demo://items/7 covers the demo://items/{id} template, a test that
// injects a fixture error does not count, and --min gates each kind.
func TestCoverageDemo(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
fixtures:
  server: demo
  errors:
    - {name: boom, code: -32000, message: "boom", tool: add}
tools:
  - {name: echo once, server: demo, tool: echo, args: {message: hi}}
  - {name: add never reaches the server, server: demo, tool: add, inject_error: boom}
resources:
  - {name: an item, server: demo, uri: "demo://items/7"}
prompts:
  - {name: a summary, server: demo, prompt: summarize, args: {text: hello}}
`)
	out := filepath.Join(t.TempDir(), "coverage.json")
	r := mcptest(t, "coverage", suite, "--reporter", "json="+out)
	if r.code != 0 {
		t.Fatalf("want exit 0 without --min:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "untested tool      add", "coverage: tools 1/16")
	_, tests := toolkitRun(t, out)
	for id, st := range map[string]report.Status{
		"coverage/tool/echo":                  report.StatusPassed,
		"coverage/tool/add":                   report.StatusWarned,
		"coverage/resource/demo://items/{id}": report.StatusPassed,
		"coverage/resource/demo://readme":     report.StatusWarned,
		"coverage/prompt/summarize":           report.StatusPassed,
		"coverage/prompt/travel":              report.StatusWarned,
	} {
		if tr := tests[id]; tr.Status != st {
			t.Errorf("%s: want %s, got %+v", id, st, tr)
		}
	}
	r = mcptest(t, "coverage", suite, "--min", "30", "--reporter", "json="+out)
	if r.code != 1 {
		t.Fatalf("--min 30: want exit 1 (tools at 6%%):\n%s", r)
	}
	_, tests = toolkitRun(t, out)
	if tr := tests["coverage/min/tools"]; tr.Status != report.StatusFailed || !strings.Contains(tr.Assertions[0].Message, "below the minimum 30%") {
		t.Errorf("tools gate: %+v", tr)
	}
	if tr := tests["coverage/min/prompts"]; tr.Status != report.StatusPassed {
		t.Errorf("prompts gate (1 of 3 = 33%%): %+v", tr)
	}
	if r := mcptest(t, "coverage", "--server-name", "nope", suite); r.code != 2 || !strings.Contains(r.stderr, "declare no such server") {
		t.Errorf("an unknown --server-name should exit 2:\n%s", r)
	}
}

// TestCoverageEverything gives server-everything the suite its audit
// wrote: every tool is touched, and --min 100 passes for tools while the
// untested resources and prompts fail it.
func TestCoverageEverything(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "starter.yml")
	args := append([]string{"audit"}, everythingServer(t)...)
	if r := mcptest(t, append(args, "--write-suite", suite, "--reporter", "json="+filepath.Join(dir, "a.json"))...); r.code != 0 {
		t.Fatalf("audit:\n%s", r)
	}
	out := filepath.Join(dir, "coverage.json")
	r := mcptestEnv(t, []string{"GZIP_ALLOWED_DOMAINS=mcptest.invalid"}, "coverage", "--min", "100", suite, "--reporter", "json="+out)
	if r.code != 1 {
		t.Fatalf("want exit 1 (resources and prompts untested):\n%s", r)
	}
	_, tests := toolkitRun(t, out)
	if tr := tests["coverage/min/tools"]; tr.Status != report.StatusPassed {
		t.Errorf("tools: %+v", tr)
	}
	if tr := tests["coverage/min/prompts"]; tr.Status != report.StatusFailed {
		t.Errorf("prompts: %+v", tr)
	}
}
