package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// TestFuzzEverything fuzzes server-everything: every tool answers null
// arguments with -32603 (what mcp-assert's fuzz finds), each reported
// once per tool under a stable id with the null case as its smallest
// reproducer; the long-running operation also times out.
func TestFuzzEverything(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fuzz.json")
	args := append([]string{"fuzz"}, everythingServer(t)...)
	r := mcptest(t, append(args, "--timeout", "3s", "--reporter", "json="+out)...)
	if r.code != 1 {
		t.Fatalf("want exit 1 (findings):\n%s", r)
	}
	run, tests := toolkitRun(t, out)
	tools := 0
	for _, tr := range run.Tests {
		if tr.Status == report.StatusSkipped {
			t.Errorf("%s skipped: %+v", tr.ID, tr.Error)
		}
		if !strings.HasSuffix(tr.ID, "/rpc_error_-32603") {
			continue
		}
		tools++
		a := tr.Assertions[0]
		if tr.Status != report.StatusFailed || tr.Check == nil || tr.Check.ID != "fuzz/crashed" ||
			!strings.Contains(string(a.Failure), `smallest reproducer \"null arguments\"`) || a.Target != "tools/call null" {
			t.Errorf("%s = %+v", tr.ID, tr)
		}
	}
	if tools != 13 {
		t.Errorf("want the null-arguments crash on all 13 tools, got %d", tools)
	}
	if tr := tests["fuzz/trigger-long-running-operation/timeout"]; tr.Status != report.StatusFailed || tr.Check == nil || tr.Check.ID != "fuzz/timed-out" {
		t.Errorf("long-running operation timeout finding: %+v", tr)
	}
}

// TestFuzzDemo fuzzes the demo: crash kills the server (a server_exited
// finding; the tool is given up after three deaths), confirm fails with
// -32603, echo handles everything; no server process outlives the run. The same seed gives the same report
// tests, and the regression suite fails against the server as it is.
func TestFuzzDemo(t *testing.T) {
	dir := t.TempDir()
	mark := "MCPTEST_TK_FUZZ_MARK=" + filepath.Base(dir)
	args := []string{"fuzz", "--server", demoServer(), "--env", mark, "--include-destructive", "--tool", "crash", "--tool", "confirm", "--tool", "echo", "--seed", "7", "--runs", "40"}
	var runs [2]map[string]report.Test
	for i := range runs {
		out, suite := filepath.Join(dir, "fuzz"+string(rune('a'+i))+".json"), filepath.Join(dir, "regress.yml")
		r := mcptest(t, append(args, "--reporter", "json="+out, "--write-suite", suite)...)
		if r.code != 1 {
			t.Fatalf("want exit 1:\n%s", r)
		}
		mustContain(t, "stderr", r.stderr, "not run after 3 server deaths")
		// Every server the restarts started is gone once mcptest exits.
		assertNoProcessWithEnv(t, mark)
		_, runs[i] = toolkitRun(t, out)
		if i == 0 {
			if rr := mcptest(t, "run", suite); rr.code == 0 || !strings.Contains(rr.stdout, "crash handles") || !strings.Contains(rr.stdout, "confirm handles") {
				raw, _ := os.ReadFile(suite)
				t.Errorf("the regression suite should fail against the server as it is:\n%s\n%s", raw, rr)
			}
		}
	}
	tests := runs[0]
	if tr := tests["fuzz/crash/server_exited"]; tr.Status != report.StatusFailed || tr.Assertions[0].Target != "tools/call (no arguments field)" {
		t.Errorf("crash finding: %+v", tr)
	}
	if tr := tests["fuzz/confirm/rpc_error_-32603"]; tr.Status != report.StatusFailed {
		t.Errorf("confirm finding: %+v", tr)
	}
	if tr := tests["fuzz/echo"]; tr.Status != report.StatusPassed || !strings.Contains(tr.Assertions[0].Message, "40 cases") {
		t.Errorf("echo: %+v", tr)
	}
	if len(runs[0]) != len(runs[1]) {
		t.Fatalf("the same seed gave %d and %d tests", len(runs[0]), len(runs[1]))
	}
	for id, a := range runs[0] {
		b := runs[1][id]
		if a.Status != b.Status || !reflect.DeepEqual(a.Assertions[0].Target, b.Assertions[0].Target) {
			t.Errorf("%s differs between two runs with one seed: %+v vs %+v", id, a.Assertions, b.Assertions)
		}
	}
}
