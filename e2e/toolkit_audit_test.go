package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// toolkitRun reads a JSON run report and indexes its tests by id.
func toolkitRun(t *testing.T, path string) (*report.Run, map[string]report.Test) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var run report.Run
	if err := json.Unmarshal(raw, &run); err != nil {
		t.Fatal(err)
	}
	byID := map[string]report.Test{}
	for _, tr := range run.Tests {
		if _, dup := byID[tr.ID]; dup {
			t.Errorf("test id %s appears twice", tr.ID)
		}
		byID[tr.ID] = tr
	}
	return &run, byID
}

// everythingServer is the --server value of server-everything over
// stdio; the --env flags keep its gzip tool from fetching its default URL
// from the internet (it refuses a domain outside the allowed list).
func everythingServer(t *testing.T) []string {
	return []string{"--server", "node " + npmServer(t, "server-everything"), "--env", "GZIP_ALLOWED_DOMAINS=mcptest.invalid"}
}

// TestAuditDemo audits the demo with its destructive tools: crash kills
// the server (a finding under audit/crashed, with the server restarted
// for the other tools), confirm asks for elicitation the audit does not
// offer and fails with -32603, every other tool is healthy; the starter
// suite then runs green with `mcptest run`.
func TestAuditDemo(t *testing.T) {
	dir := t.TempDir()
	out, suite := filepath.Join(dir, "audit.json"), filepath.Join(dir, "starter.yml")
	r := mcptest(t, "audit", "--server", demoServer(), "--include-destructive", "--timeout", "5s",
		"--reporter", "json="+out, "--reporter", "pretty", "--write-suite", suite)
	if r.code != 1 {
		t.Fatalf("want exit 1 (findings):\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "TOOL", "crash", "crashed", "server_exited", "score ", "wrote "+suite)
	run, tests := toolkitRun(t, out)
	if run.ExitCode != 1 || len(run.Servers) != 1 || run.Servers[0].ServerName != "mcptest-demo" {
		t.Errorf("run header: exit %d servers %+v", run.ExitCode, run.Servers)
	}
	crash := tests["audit/crash"]
	if crash.Status != report.StatusFailed || crash.Check == nil || crash.Check.ID != "audit/crashed" || crash.Tool != "crash" {
		t.Errorf("audit/crash = %+v", crash)
	}
	if c := tests["audit/confirm"]; c.Status != report.StatusFailed || !strings.Contains(c.Assertions[0].Message, "-32603") {
		t.Errorf("audit/confirm = %+v", c)
	}
	for _, name := range []string{"echo", "add", "greet", "fail", "json_blob", "slow"} {
		if tr := tests["audit/"+name]; tr.Status != report.StatusPassed {
			t.Errorf("audit/%s = %+v; want passed", name, tr)
		}
	}
	rr := mcptest(t, "run", suite)
	if rr.code != 0 {
		raw, _ := os.ReadFile(suite)
		t.Fatalf("the starter suite does not pass:\n%s\n%s", raw, rr)
	}
}

// TestAuditSkipsDestructive leaves out tools whose annotations allow
// destructive effects unless asked, and reports them skipped.
func TestAuditSkipsDestructive(t *testing.T) {
	out := filepath.Join(t.TempDir(), "audit.json")
	r := mcptest(t, "audit", "--server", demoServer(), "--tool", "crash", "--tool", "echo", "--reporter", "json="+out)
	if r.code != 0 {
		t.Fatalf("want exit 0 (crash is not called):\n%s", r)
	}
	_, tests := toolkitRun(t, out)
	if c := tests["audit/crash"]; c.Status != report.StatusSkipped || c.Error == nil || !strings.Contains(c.Error.Message, "--include-destructive") {
		t.Errorf("audit/crash = %+v", c)
	}
	if len(tests) != 2 {
		t.Errorf("--tool should limit the audit to two tools, got %d", len(tests))
	}
	if r := mcptest(t, "audit", "--server", demoServer(), "--tool", "nope"); r.code != 2 || !strings.Contains(r.stderr, "nope") {
		t.Errorf("an unknown --tool should exit 2 naming it:\n%s", r)
	}
}

// TestAuditEverything audits server-everything: every tool is healthy
// (the long-running operation is called with its shortest duration, not
// its 10 s default), and the starter suite passes.
func TestAuditEverything(t *testing.T) {
	dir := t.TempDir()
	out, suite := filepath.Join(dir, "audit.json"), filepath.Join(dir, "starter.yml")
	args := append([]string{"audit"}, everythingServer(t)...)
	r := mcptest(t, append(args, "--reporter", "json="+out, "--write-suite", suite)...)
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "score 100%")
	run, tests := toolkitRun(t, out)
	if run.Summary.Passed < 13 || run.Summary.Failed != 0 {
		t.Errorf("summary %+v", run.Summary)
	}
	if tr := tests["audit/trigger-long-running-operation"]; tr.Status != report.StatusPassed || tr.DurationMS > 5000 {
		t.Errorf("long-running operation: %+v", tr)
	}
	if rr := mcptest(t, "run", suite); rr.code != 0 {
		raw, _ := os.ReadFile(suite)
		t.Fatalf("the starter suite does not pass:\n%s\n%s", raw, rr)
	}
}

// TestAuditHTTPHeaderSecret audits the demo over Streamable HTTP with a
// header read from the environment: the header reaches the server (its
// request_headers tool echoes it) and the secret appears in no report.
func TestAuditHTTPHeaderSecret(t *testing.T) {
	const secret = "s3cr3t-header-value-for-audit"
	u := startDemoMode(t, "--http")
	dir := t.TempDir()
	out, suite := filepath.Join(dir, "audit.json"), filepath.Join(dir, "starter.yml")
	r := mcptestEnv(t, []string{"AUDIT_TOKEN=" + secret}, "audit", "--server", u, "--header-env", "X-Audit-Token=AUDIT_TOKEN",
		"--header", "X-Plain=visible", "--tool", "request_headers", "--reporter", "json="+out, "--reporter", "pretty", "--write-suite", suite)
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%s", r)
	}
	raw, _ := os.ReadFile(out)
	written, _ := os.ReadFile(suite)
	for what, text := range map[string]string{"json": string(raw), "stdout": r.stdout, "stderr": r.stderr, "suite": string(written)} {
		if strings.Contains(text, secret) {
			t.Errorf("the secret leaked into %s", what)
		}
	}
	mustContain(t, "suite", string(written), `"X-Audit-Token": {env: "AUDIT_TOKEN"}`, `"X-Plain": "visible"`)
	if rr := mcptestEnv(t, []string{"AUDIT_TOKEN=" + secret}, "run", suite); rr.code != 0 {
		t.Fatalf("the starter suite does not pass:\n%s\n%s", written, rr)
	}
	if r := mcptest(t, "audit", "--server", demoServer(), "--header", "X-A=b"); r.code != 2 || !strings.Contains(r.stderr, "URL servers") {
		t.Errorf("--header with a command should exit 2:\n%s", r)
	}
}

// TestAuditShardsMerge splits an audit of the demo in two shards, merges
// their reports with `report merge` and re-renders the merge: it holds the
// unsharded audit's tests, each once, with the same verdicts.
func TestAuditShardsMerge(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.json")
	if r := mcptest(t, "audit", "--server", demoServer(), "--reporter", "json="+whole); r.code != 1 {
		t.Fatalf("unsharded audit:\n%s", r)
	}
	var shards []string
	for _, s := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "shard-"+s[:1]+".json")
		r := mcptest(t, "audit", "--server", demoServer(), "--shard", s, "--run-id", "audit-ci-1", "--reporter", "json="+out)
		if r.code != 0 && r.code != 1 {
			t.Fatalf("shard %s:\n%s", s, r)
		}
		shards = append(shards, out)
	}
	merged := filepath.Join(dir, "all.json")
	if r := mcptest(t, append([]string{"report", "merge", "-o", merged}, shards...)...); r.code != 0 {
		t.Fatalf("merge:\n%s", r)
	}
	_, a := toolkitRun(t, whole)
	run, b := toolkitRun(t, merged)
	if len(a) != len(b) || run.ExitCode != 1 {
		t.Fatalf("merged %d tests (exit %d), unsharded %d", len(b), run.ExitCode, len(a))
	}
	for id, ta := range a {
		if tb, ok := b[id]; !ok || ta.Status != tb.Status {
			t.Errorf("%s: unsharded %s, merged %+v", id, ta.Status, tb)
		}
	}
	junit := filepath.Join(dir, "junit.xml")
	if r := mcptest(t, "report", merged, "--format", "junit="+junit); r.code != 0 {
		t.Fatalf("re-render:\n%s", r)
	}
	raw, _ := os.ReadFile(junit)
	mustContain(t, "junit", string(raw), `name="confirm"`, "audit/crashed", "<failure")
}
