package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// Habits pytest and Playwright users bring: -x/--max-failures, --list and
// --last-failed, through the real binary.

// fourSuite has two passing and two failing tests, in that order: pass,
// fail, pass, fail.
const fourSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: first passes
    server: demo
    tool: echo
    args: {message: "a"}
    tags: [smoke]
    expect:
      - {target: "result.content[0].text", matcher: {exact: "a"}}
  - name: second fails
    server: demo
    tool: echo
    args: {message: "b"}
    expect:
      - {target: "result.content[0].text", matcher: {exact: "not b"}}
  - name: third passes
    server: demo
    tool: echo
    args: {message: "c"}
    expect:
      - {target: "result.content[0].text", matcher: {exact: "c"}}
  - name: fourth fails
    server: demo
    tool: echo
    args: {message: "d"}
    tags: [smoke, slow]
    expect:
      - {target: "result.content[0].text", matcher: {exact: "not d"}}
`

func statuses(r *report.Run) map[string]report.Status {
	out := map[string]report.Status{}
	for _, tr := range r.Tests {
		out[tr.Name] = tr.Status
	}
	return out
}

func TestFailFastSkipsTheRest(t *testing.T) {
	suite := writeSuite(t, fourSuite)
	for _, tc := range []struct {
		args    []string
		skipped []string
		reason  string
	}{
		{[]string{"-x"}, []string{"third passes", "fourth fails"}, "--fail-fast"},
		{[]string{"--fail-fast"}, []string{"third passes", "fourth fails"}, "--fail-fast"},
		{[]string{"--max-failures", "2"}, nil, ""},
	} {
		out := filepath.Join(t.TempDir(), "run.json")
		args := append([]string{"run", "--jobs", "1", "--reporter", "json=" + out, "--reporter", "pretty"}, tc.args...)
		r := mcptestIn(t, t.TempDir(), nil, append(args, suite)...)
		if r.code != 1 {
			t.Fatalf("%v: want exit 1:\n%s", tc.args, r)
		}
		run := readRun(t, out)
		st := statuses(run)
		if st["first passes"] != report.StatusPassed || st["second fails"] != report.StatusFailed {
			t.Errorf("%v: statuses %v", tc.args, st)
		}
		for _, tr := range run.Tests {
			want := slicesContains(tc.skipped, tr.Name)
			if got := tr.Status == report.StatusSkipped; got != want {
				t.Errorf("%v: %s is %s", tc.args, tr.Name, tr.Status)
			}
			if want && (tr.Error == nil || !strings.Contains(tr.Error.Message, tc.reason)) {
				t.Errorf("%v: %s: skip reason %+v does not name %s", tc.args, tr.Name, tr.Error, tc.reason)
			}
		}
		if len(tc.skipped) > 0 {
			mustContain(t, "pretty output", r.stdout, "2 skipped", "--fail-fast")
		}
		if len(run.Servers) != 1 {
			t.Errorf("%v: servers %+v", tc.args, run.Servers)
		}
		// Stopping early still stops the server and the plugins.
		assertNoOrphans(t)
	}
	r := mcptest(t, "run", "-x", "--max-failures", "3", suite)
	if r.code != 2 || !strings.Contains(r.stderr, "give one") {
		t.Errorf("-x with --max-failures 3 must be refused:\n%s", r)
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestListPrintsSelectedTestsWithoutStartingAnything(t *testing.T) {
	// The server command does not exist: listing must not start it.
	suite := writeSuite(t, strings.ReplaceAll(fourSuite, `["DEMO"]`, `["/nonexistent/server"]`))
	r := mcptest(t, "run", "--list", "--tag", "smoke", suite)
	if r.code != 0 {
		t.Fatalf("--list:\n%s", r)
	}
	mustContain(t, "--list", r.stdout, suite+":6  first passes  [smoke]  (id: "+suite+"::tools::first passes)",
		"fourth fails  [smoke, slow]", "2 tests in 1 suite")
	if strings.Contains(r.stdout, "second fails") {
		t.Errorf("--list shows a test --tag left out:\n%s", r.stdout)
	}
	r = mcptest(t, "run", "--list", "--json", "--shard", "1/1", suite)
	if r.code != 0 {
		t.Fatalf("--list --json:\n%s", r)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 JSON lines:\n%s", r.stdout)
	}
	var e struct {
		ID, Name, Kind, File, Server string
		Line                         int
		Tags                         []string
	}
	if err := json.Unmarshal([]byte(lines[3]), &e); err != nil {
		t.Fatal(err)
	}
	if e.ID != suite+"::tools::fourth fails" || e.Name != "fourth fails" || e.Kind != "tool" || e.File != suite ||
		e.Line != 25 || e.Server != "demo" || strings.Join(e.Tags, ",") != "smoke,slow" {
		t.Errorf("entry %+v", e)
	}
	if r = mcptest(t, "run", "--json", suite); r.code != 2 || !strings.Contains(r.stderr, "--list") {
		t.Errorf("--json without --list:\n%s", r)
	}
}

func TestLastFailedRerunsOnlyFailures(t *testing.T) {
	project := t.TempDir()
	suite := writeSuite(t, fourSuite)
	// No record yet: everything runs, with a note.
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestIn(t, project, nil, "run", "--last-failed", "--reporter", "json="+out, suite)
	if r.code != 1 || len(readRun(t, out).Tests) != 4 {
		t.Fatalf("first run:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "no failed tests recorded", "running all 4")
	if _, err := os.Stat(filepath.Join(project, ".mcptest", "last-failed.json")); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	// The second run takes the two failures only, whatever the path spelling.
	rel, err := filepath.Rel(project, suite)
	if err != nil {
		t.Fatal(err)
	}
	r = mcptestIn(t, project, nil, "run", "--last-failed", "--list", rel)
	if r.code != 0 {
		t.Fatalf("--last-failed --list:\n%s", r)
	}
	mustContain(t, "--list", r.stdout, "second fails", "fourth fails", "2 tests in 1 suite")
	mustContain(t, "stderr", r.stderr, "2 of 4")
	// Fix one failure: the next run records it as passing, and only the
	// other stays.
	fixed := strings.Replace(fourSuite, `"not b"`, `"b"`, 1)
	if err := os.WriteFile(suite, []byte(strings.ReplaceAll(fixed, "DEMO", filepath.Join(binDir, "mcptest-demo-server"))), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcptestIn(t, project, nil, "run", "--last-failed", "--reporter", "json="+out, suite)
	if r.code != 1 {
		t.Fatalf("third run:\n%s", r)
	}
	if st := statuses(readRun(t, out)); len(st) != 2 || st["second fails"] != report.StatusPassed || st["fourth fails"] != report.StatusFailed {
		t.Errorf("third run statuses %v", st)
	}
	r = mcptestIn(t, project, nil, "run", "--last-failed", "--list", suite)
	mustContain(t, "--list", r.stdout, "fourth fails", "1 test in 1 suite")
}

// TestDataRowsExample runs the data rows example (inline, CSV and JSON
// Lines rows) and checks that each row is its own result with its id.
func TestDataRowsExample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.json")
	suite := filepath.Join(root, "examples", "data-rows", "suite.yml")
	r := mcptestIn(t, filepath.Dir(binDir), nil, "run", "--reporter", "json="+out, "--reporter", "pretty", suite)
	if r.code != 0 {
		t.Fatalf("the example failed:\n%s", r)
	}
	run := readRun(t, out)
	ids := map[string]bool{}
	for _, tr := range run.Tests {
		ids[strings.TrimPrefix(tr.ID, suite+"::")+" = "+tr.Name] = true
	}
	for _, want := range []string{
		"tools::add ${data.a} and ${data.b} [small] = add 2 and 40 [small]",
		"tools::add ${data.a} and ${data.b} [2] = add 0.5 and 0.25 [2]",
		"tools::echo round-trips [comma] = echo round-trips [comma]",
		"tools::add from jsonl [floats] = add from jsonl [floats]",
	} {
		if !ids[want] {
			t.Errorf("no result %q in %v", want, ids)
		}
	}
	if len(run.Tests) != 8 {
		t.Errorf("%d results, want 8", len(run.Tests))
	}
	// One row picked by its suffix, as docs/data-rows.md shows.
	r = mcptestIn(t, filepath.Dir(binDir), nil, "run", "--list", "--include", "small]", suite)
	mustContain(t, "--list --include small]", r.stdout, "add 2 and 40 [small]", "1 test in 1 suite")
}

// A wrong row fails alone; a row without a referenced field stops the
// run before anything starts, naming the file, line and field.
func TestDataRowsFailAndErrors(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: sums
    server: demo
    tool: add
    data:
      - {name: right, a: 1, b: 2, sum: 3}
      - {name: wrong, a: 1, b: 2, sum: 4}
    args: {a: "${data.a}", b: "${data.b}"}
    expect:
      - {target: result.structuredContent.sum, matcher: {exact: "${data.sum}"}}
`)
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestIn(t, t.TempDir(), nil, "run", "--reporter", "json="+out, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	if st := statuses(readRun(t, out)); st["sums [right]"] != report.StatusPassed || st["sums [wrong]"] != report.StatusFailed {
		t.Errorf("statuses %v", st)
	}
	bad := writeSuite(t, `
servers:
  demo:
    command: ["/nonexistent/server"]
tools:
  - name: sums
    server: demo
    tool: add
    data: [{a: 1, b: 2}, {name: short, a: 1}]
    args: {a: "${data.a}", b: "${data.b}"}
`)
	r = mcptestIn(t, t.TempDir(), nil, "run", bad)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, bad+`:10:31: /tools/0/args/b: data row 1 ("short") has no field "b"`)
}
