package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trajectoryChecks assert order, presence, absence, arguments, counts and
// repeats over the session recordTrajectory makes.
const trajectoryChecks = `
trajectories:
  - name: echo then add
    trace: trace.jsonl
    expect:
      - {target: tool_names, matcher: {exact: [echo, add, add]}}
      - {target: "tool_calls[0].name", matcher: {exact: echo}}
      - {target: tool_names, matcher: {contains-all: [add]}}
      - {target: tool_names, matcher: {not: {contains-any: [delete_everything]}}}
      - {target: "tool_calls[0].args.message", matcher: {contains: planted}}
      - {target: "tool_calls[1].args.b", matcher: {exact: 2}}
      - {target: tool_calls.length, matcher: {exact: 3}}
      - {target: redundant_tool_calls, matcher: {exact: 1}}
      - {target: "tool_results[1].result.structuredContent.sum", matcher: {exact: 3}}
`

// recordTrajectory runs a suite through mcptest intercept against the
// demo server, in order (-j 1), and returns the directory holding
// trace.jsonl. The third call repeats the second with its keys in another
// order, which counts as one redundant call.
func recordTrajectory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rec := writeFileIn(t, dir, "record.yml", `
servers:
  s:
    command: ["`+filepath.Join(binDir, "mcptest")+`", "intercept", "-o", "`+filepath.Join(dir, "trace.jsonl")+`", "--", "`+filepath.Join(binDir, "mcptest-demo-server")+`"]
tools:
  - name: echo
    server: s
    tool: echo
    args: {message: "the planted value"}
  - name: add
    server: s
    tool: add
    args: {a: 1, b: 2}
  - name: add again
    server: s
    tool: add
    args: {b: 2, a: 1}
`)
	if r := mcptest(t, "run", "-j", "1", "--no-cache", rec); r.code != 0 {
		t.Fatalf("recording through intercept should pass:\n%s", r)
	}
	return dir
}

func writeFileIn(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrajectoriesOverIntercept judges a real intercept trace: the checks
// pass; a wrong order or count fails the run (exit 1) naming the target
// with the trajectory in the report; a missing trace errors it (exit 2)
// naming the file.
func TestTrajectoriesOverIntercept(t *testing.T) {
	dir := recordTrajectory(t)
	ok := writeFileIn(t, dir, "ok.yml", trajectoryChecks)
	if r := mcptest(t, "run", ok); r.code != 0 {
		t.Fatalf("the trajectory checks should pass:\n%s", r)
	}

	bad := writeFileIn(t, dir, "bad.yml", `
trajectories:
  - name: wrong order
    trace: trace.jsonl
    expect:
      - {target: tool_names, matcher: {exact: [add, echo, add]}}
  - name: too many calls
    trace: trace.jsonl
    expect:
      - {target: tool_calls.length, matcher: {exact: 2}}
  - name: still right
    trace: trace.jsonl
    expect:
      - {target: "tool_calls[2].args.a", matcher: {exact: 1}}
`)
	r := mcptest(t, "run", "--reporter", "json", bad)
	if r.code != 1 {
		t.Fatalf("failed trajectory checks should exit 1:\n%s", r)
	}
	mustContain(t, "json report", r.stdout, `"block": "trajectories"`, "tool_names", "tool_calls.length")
	if n := strings.Count(r.stdout, `"status": "failed"`); n < 2 {
		t.Errorf("want the two wrong tests failed, got %d failures:\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stdout, `"status": "passed"`) {
		t.Errorf("the right test should pass:\n%s", r.stdout)
	}

	missing := writeFileIn(t, dir, "missing.yml", `
trajectories:
  - name: no trace
    trace: nowhere.jsonl
    expect:
      - {target: tool_calls.length, matcher: {exact: 0}}
`)
	r = mcptest(t, "run", missing)
	if r.code != 2 {
		t.Fatalf("a missing trace should error the run:\n%s", r)
	}
	mustContain(t, "output", r.stdout+r.stderr, "nowhere.jsonl", "does not exist")
}

// TestTrajectoriesLoadErrors: a trajectory test without its trace, or
// with an unknown key, is a located load error.
func TestTrajectoriesLoadErrors(t *testing.T) {
	dir := t.TempDir()
	p := writeFileIn(t, dir, "s.yml", `
trajectories:
  - name: no trace
    expect:
      - {target: tool_names, matcher: {contains-all: [echo]}}
  - name: typo
    trace: t.jsonl
    expct: []
`)
	r := mcptest(t, "run", p)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "errors", r.stderr, "s.yml:3:", `"trace"`, "s.yml:8:", "expct")
}

// TestTrajectoriesWithHooks: per-test hooks run around a trajectory test,
// which has no server (the context payload once dereferenced it and the
// run panicked).
func TestTrajectoriesWithHooks(t *testing.T) {
	dir := t.TempDir()
	writeFileIn(t, dir, "trace.jsonl", `{"seq":1,"dir":"client_to_server","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}},"tool":"echo","args":{"message":"hi"}}`+"\n")
	p := writeFileIn(t, dir, "s.yml", `
hooks:
  beforeEach:
    - command: "sh -c 'cat >/dev/null; echo {}'"
      mode: context
  afterEach: "true"
trajectories:
  - name: one echo
    trace: trace.jsonl
    expect:
      - {target: tool_names, matcher: {exact: [echo]}}
`)
	if r := mcptest(t, "run", p); r.code != 0 {
		t.Fatalf("want a pass:\n%s", r)
	}
}

// TestImportTrajectories converts mcp-assert's trajectory corpus into a
// trajectories block plus trace files and runs it green; a converted
// file whose order check contradicts its trace fails (exit 1), so the
// converted checks can fail.
func TestImportTrajectories(t *testing.T) {
	// The trajectory files of mcp-assert's examples (MIT, see the LICENSE
	// beside them).
	corpus := filepath.Join(root, "e2e", "testdata", "mcp-assert", "trajectory")
	out := filepath.Join(t.TempDir(), "s.yml")
	if r := mcptest(t, "import", "mcp-assert", corpus, "-o", out); r.code != 0 {
		t.Fatalf("import:\n%s", r)
	}
	if r := mcptest(t, "run", out); r.code != 0 || !strings.Contains(r.stdout, "20 passed") {
		t.Fatalf("the converted trajectories should pass:\n%s", r)
	}
	src := t.TempDir()
	writeFileIn(t, src, "t.yaml", `name: rename protocol
trace:
  - tool: prepare_rename
    args: {file: main.go, line: 6}
  - tool: get_references
  - tool: rename_symbol
    args: {new_name: Entity}
trajectory:
  - type: order
    tools: [prepare_rename, rename_symbol]
  - type: presence
    tools: [get_references]
  - type: absence
    tools: [apply_edit]
  - type: args_contain
    tool: rename_symbol
    args: {new_name: Entity}
`)
	writeFileIn(t, src, "u.yaml", `name: wrong order
trace:
  - tool: a
  - tool: b
trajectory:
  - type: order
    tools: [b, a]
`)
	out = filepath.Join(t.TempDir(), "s.yml")
	if r := mcptest(t, "import", "mcp-assert", src, "-o", out); r.code != 0 {
		t.Fatalf("import:\n%s", r)
	}
	r := mcptest(t, "run", out)
	if r.code != 1 {
		t.Fatalf("want the wrong order to fail:\n%s", r)
	}
	mustContain(t, "output", r.stdout, "PASS  rename protocol", "FAIL  wrong order")
}
