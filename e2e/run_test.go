package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corereport "github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk/report"
)

// TestQuickstart runs the README's suite the way the README does: from a
// folder holding bin/, through real plugin processes.
func TestQuickstart(t *testing.T) {
	r := mcptestIn(t, filepath.Dir(binDir), nil, "run", filepath.Join(root, "examples", "quickstart.yml"))
	if r.code != 0 {
		t.Fatalf("quickstart failed:\n%s", r)
	}
	mustContain(t, "stdout", r.stdout, "echo returns the message unchanged", "5 passed", "0 failed")
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("colour codes written to a pipe:\n%q", r.stdout)
	}
}

const mixedSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: passes
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "hello"}
  - name: fails with a diff
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "goodbye"}
        message: echo should say goodbye
  - name: missing target fails
    server: demo
    tool: add
    args: {a: 1, b: 2}
    expect:
      - target: result.structuredContent.product
        matcher: {exact: 2}
`

func TestRunReportsFailuresAndWritesJSON(t *testing.T) {
	suite := writeSuite(t, mixedSuite)
	out := filepath.Join(t.TempDir(), "reports", "run.json")
	r := mcptest(t, "run", "--reporter", "pretty", "--reporter", "json="+out, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1 (a test failed):\n%s", r)
	}
	mustContain(t, "pretty output", r.stdout, "passes", "fails with a diff", "goodbye", "hello", "echo should say goodbye",
		"product", "1 passed", "2 failed")
	// ReadRun validates the file against schemas/report.v1.json.
	runp, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	run := *runp
	if run.SchemaVersion != report.SchemaVersion || run.Summary.Passed != 1 || run.Summary.Failed != 2 || run.ExitCode != 1 {
		t.Fatalf("report summary = %+v exit %d", run.Summary, run.ExitCode)
	}
	if len(run.Servers) != 1 || run.Servers[0].ServerName != "mcptest-demo" || run.Servers[0].ProtocolVersion == "" {
		t.Errorf("servers = %+v", run.Servers)
	}
	failed := run.Tests[1]
	if failed.Status != report.StatusFailed || len(failed.Assertions) != 1 || len(failed.Frames) < 2 {
		t.Fatalf("failed test = %+v", failed)
	}
	var f map[string]any
	if err := json.Unmarshal(failed.Assertions[0].Failure, &f); err != nil {
		t.Fatal(err)
	}
	if f["expected"] != "goodbye" || f["actual"] != "hello" {
		t.Errorf("failure = %s", failed.Assertions[0].Failure)
	}
	if failed.Assertions[0].Plugin != "text@0.1.0" {
		t.Errorf("assertion judged by %q", failed.Assertions[0].Plugin)
	}
}

func TestServerCrashErrorsOnlyItsTests(t *testing.T) {
	suite := writeSuite(t, `
servers:
  fragile:
    command: ["DEMO"]
  steady:
    command: ["DEMO"]
tools:
  - name: crashes the server
    server: fragile
    tool: crash
  - name: steady server still answers
    server: steady
    tool: echo
    args: {message: "still here"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "still here"}
`)
	r := mcptest(t, "run", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2 (an errored test):\n%s", r)
	}
	mustContain(t, "output", r.stdout, "crashes the server", "demo: crash requested", "steady server still answers", "1 passed", "1 errored")
}

func TestBadSuitesStopBeforeAnythingRuns(t *testing.T) {
	cases := map[string]struct {
		suite string
		wants []string
	}{
		"typo in a key": {`
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    expct: []
`, []string{"suite.yml:9:5", "/tools/0", `did you mean "expect"`}},
		"unknown matcher": {`
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    expect:
      - target: result
        matcher: {regx: "a"}
`, []string{"suite.yml:11:19", "/tools/0/expect/0/matcher", `unknown matcher "regx"`, `did you mean "regex"?`}},
		"invalid regex": {`
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    expect:
      - target: result
        matcher: {regex: "(unclosed"}
`, []string{"suite.yml:11:19", "/tools/0/expect/0/matcher", "regex"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "server-started")
			suite := writeSuite(t, strings.ReplaceAll(c.suite, `["DEMO"]`, `["sh", "-c", "touch `+marker+`; exec DEMO"]`))
			for _, cmd := range []string{"run", "validate"} {
				r := mcptest(t, cmd, suite)
				if r.code != 2 {
					t.Fatalf("%s: want exit 2:\n%s", cmd, r)
				}
				mustContain(t, cmd+" stderr", r.stderr, c.wants...)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("a server was started for an invalid suite")
			}
		})
	}
}

// TestWireAllKeepsFramesOfPassingTests: by default only tests that did not
// pass keep their frames; --wire all keeps every test's requests and
// answers; anything else is refused.
func TestWireAllKeepsFramesOfPassingTests(t *testing.T) {
	suite := writeSuite(t, mixedSuite)
	frames := func(args ...string) map[string]int {
		t.Helper()
		out := filepath.Join(t.TempDir(), "run.json")
		r := mcptest(t, append(append([]string{"run", "--reporter", "json=" + out}, args...), suite)...)
		if r.code != 1 {
			t.Fatalf("want exit 1:\n%s", r)
		}
		run, err := corereport.ReadRun(out)
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, tr := range run.Tests {
			n[tr.Name] = len(tr.Frames)
		}
		return n
	}
	if n := frames(); n["passes"] != 0 || n["fails with a diff"] < 2 {
		t.Errorf("default: frames per test %v", n)
	}
	if n := frames("--wire", "all"); n["passes"] < 2 || n["fails with a diff"] < 2 {
		t.Errorf("--wire all: frames per test %v", n)
	}
	if r := mcptest(t, "run", "--wire", "some", suite); r.code != 2 || !strings.Contains(r.stderr, `--wire "some": want failures or all`) {
		t.Errorf("--wire some:\n%s", r)
	}
}

// TestLatencyBudgetIsSoft: a suite's p95 latency budget marks the slow
// tests and reports the percentile, and changes no verdict nor the exit
// code.
func TestLatencyBudgetIsSoft(t *testing.T) {
	suite := writeSuite(t, `
performance:
  p95_latency_ms: 500
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: fast
    server: demo
    tool: echo
    args: {message: hi}
  - name: slow
    server: demo
    tool: slow
    args: {ms: 1000}
`)
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+out, suite)
	if r.code != 0 {
		t.Fatalf("a latency budget must not fail the run:\n%s", r)
	}
	mustContain(t, "pretty", r.stdout, "slow: ", "over the 500 ms latency budget", "latency budgets (p95):", "over budget")
	run, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Latency) != 1 || run.Latency[0].Tests != 2 || run.Latency[0].Over != 1 || !run.Latency[0].Breached || run.Latency[0].P95MS < 1000 {
		t.Errorf("latency summary %+v", run.Latency)
	}
	for _, tr := range run.Tests {
		if tr.LatencyMS == nil || tr.LatencyBudgetMS != 500 || tr.OverLatencyBudget() != (tr.Name == "slow") {
			t.Errorf("%s: latency %v budget %d", tr.Name, tr.LatencyMS, tr.LatencyBudgetMS)
		}
	}
}
