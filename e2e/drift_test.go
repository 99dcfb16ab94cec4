package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/servertest"
	"github.com/mcptest/mcptest/sdk/report"
)

// driftSpec writes a drift spec for the demo server started with extra
// arguments.
func driftSpec(t *testing.T, dir, name, extra string) string {
	t.Helper()
	text := "server: " + demoServer() + extra + `
canaries:
  - name: add-two
    tool: add
    arguments: {a: 1, b: 2}
  - name: echo-hi
    tool: echo
    arguments: {message: hi}
`
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDriftDemo captures a baseline of the demo server; a check against
// the same server passes, against the demo with a changed tool schema
// fails with schema drift, and against the demo whose add answers wrong
// fails with behavioural drift on that canary only.
func TestDriftDemo(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	r := mcptest(t, "drift", "capture", driftSpec(t, dir, "spec.yml", ""), "-o", base)
	if r.code != 0 {
		t.Fatalf("capture:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "2 canaries")
	js := filepath.Join(dir, "check.json")
	if r := mcptest(t, "drift", "check", "--baseline", base, "--spec", driftSpec(t, dir, "same.yml", ""), "--reporter", "json="+js); r.code != 0 {
		t.Fatalf("check against the same server:\n%s", r)
	}
	if run, _ := toolkitRun(t, js); run.Summary.Passed != 2 || run.Summary.Total != 2 {
		t.Errorf("same server: %+v", run.Summary)
	}

	r = mcptest(t, "drift", "check", "--baseline", base, "--spec", driftSpec(t, dir, "schema.yml", " --variant schema"), "--reporter", "json="+js)
	if r.code != 1 {
		t.Fatalf("schema drift: want exit 1\n%s", r)
	}
	_, tests := toolkitRun(t, js)
	if tr := tests["diff/required-argument-added/tool/echo/inputSchema/properties/times"]; tr.Status != report.StatusFailed {
		t.Errorf("schema drift test = %+v", tr)
	}

	later := filepath.Join(dir, "later.json")
	if r := mcptest(t, "drift", "capture", driftSpec(t, dir, "behaviour.yml", " --variant behaviour"), "-o", later); r.code != 0 {
		t.Fatalf("capture the changed demo:\n%s", r)
	}
	r = mcptest(t, "drift", "check", "--baseline", base, "--current", later, "--reporter", "json="+js)
	if r.code != 1 {
		t.Fatalf("behavioural drift: want exit 1\n%s", r)
	}
	run, tests := toolkitRun(t, js)
	add := tests["drift/canary/add-two"]
	if add.Status != report.StatusFailed || add.Check == nil || add.Check.ID != "drift/behaviour" || !strings.Contains(add.Assertions[0].Message, "content changed") {
		t.Errorf("add canary = %+v", add)
	}
	if tests["drift/canary/echo-hi"].Status != report.StatusPassed || run.Summary.Total != 2 {
		t.Errorf("echo canary / summary: %+v %+v", tests["drift/canary/echo-hi"], run.Summary)
	}
}

// TestDriftEverything watches server-everything: a baseline and a check
// right after it agree once its volatile fields are masked.
func TestDriftEverything(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yml")
	text := "server: node " + npmServer(t, "server-everything") + "\nenv: {GZIP_ALLOWED_DOMAINS: mcptest.invalid}\ncanaries:\n  - name: echo\n    tool: echo\n    arguments: {message: canary}\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "base.json")
	if r := mcptest(t, "drift", "capture", spec, "-o", base); r.code != 0 {
		t.Fatalf("capture:\n%s", r)
	}
	if r := mcptest(t, "drift", "check", "--baseline", base, "--spec", spec); r.code != 0 {
		t.Fatalf("check:\n%s", r)
	}
}

// TestDriftUsage exits 2 for a check without a current side, and names
// the file and field of a bad spec.
func TestDriftUsage(t *testing.T) {
	if r := mcptest(t, "drift", "check", "--baseline", "x.json"); r.code != 2 || !strings.Contains(r.stderr, "exactly one of --current and --spec") {
		t.Errorf("no current side:\n%s", r)
	}
	spec := filepath.Join(t.TempDir(), "bad.yml")
	if err := os.WriteFile(spec, []byte("server: x\ncanaries:\n  - name: a\n    tol: echo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := mcptest(t, "drift", "capture", spec, "-o", filepath.Join(t.TempDir(), "s.json")); r.code != 2 || !strings.Contains(r.stderr, "bad.yml") || !strings.Contains(r.stderr, "tol") {
		t.Errorf("bad spec:\n%s", r)
	}
}

// TestDriftMasksSecrets watches a URL server with a bearer token read from
// the environment; the demo's request_headers canary echoes the token, yet
// neither the state file nor the check's report holds it.
func TestDriftMasksSecrets(t *testing.T) {
	const token = "drift-secret-token-8c1f3a"
	url, _ := servertest.StartURL(t, demoServer(), nil, "--http", "127.0.0.1:0")
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yml")
	text := "server: " + url + "\nbearer_token_env: DRIFT_E2E_TOKEN\ncanaries:\n  - name: headers\n    tool: request_headers\n    ignore: [/content/0/text]\n  - name: echo\n    tool: echo\n    arguments: {message: hi}\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"DRIFT_E2E_TOKEN=" + token}
	base, js := filepath.Join(dir, "base.json"), filepath.Join(dir, "check.json")
	if r := mcptestEnv(t, env, "drift", "capture", spec, "-o", base); r.code != 0 {
		t.Fatalf("capture:\n%s", r)
	}
	r := mcptestEnv(t, env, "drift", "check", "--baseline", base, "--spec", spec, "--reporter", "json="+js)
	if r.code != 0 {
		t.Fatalf("check:\n%s", r)
	}
	for _, f := range []string{base, js} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), token) || strings.Contains(string(raw), token[6:]) {
			t.Errorf("%s holds the token", f)
		}
	}
	if strings.Contains(r.stdout+r.stderr, token) {
		t.Error("the output holds the token")
	}
}
