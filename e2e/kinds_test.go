package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	corereport "github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk/report"
)

// The list, completion and compliance blocks, restart_policy and fixture
// copies, through the real binary and its bundled plugins.

const kindsSuite = `
servers:
  demo:
    command: ["DEMO"]
lists:
  - name: every resource over three pages
    server: demo
    list: resources
    expect:
      - {target: pages, matcher: {exact: 3}}
      - {target: result.resources.length, matcher: {exact: 48}}
  - name: the first page
    server: demo
    list: resources
    pages: 1
    capture: {next: result.nextCursor}
    tags: [paging]
  - name: the page after it
    server: demo
    list: resources
    cursor: "${capture:next}"
    tags: [paging]
    expect:
      - {target: "result.resources[0].name", matcher: {exact: "catalog-21"}}
  - name: a wrong page count
    server: demo
    list: tools
    tags: [wrong]
    expect:
      - {target: pages, matcher: {exact: 5}}
completions:
  - name: a city of the chosen country
    server: demo
    ref: {prompt: travel}
    argument: {name: city, value: "Os"}
    context: {country: "NO"}
    expect:
      - {target: result.completion.values, matcher: {exact: ["Oslo"]}}
compliance:
  - {name: responses echo ids, server: demo, check: J01, tags: [protocol]}
  - {name: prompt errors, server: demo, check: P01, tags: [protocol, should]}
  - {name: invalid requests, server: demo, check: J06, tags: [must]}
`

func TestListsCompletionsAndComplianceBlocks(t *testing.T) {
	suite := writeSuite(t, kindsSuite)
	if r := mcptest(t, "validate", suite); r.code != 0 || !strings.Contains(r.stdout, "8 test(s): valid") {
		t.Fatalf("validate:\n%s", r)
	}
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+out, "--skip-tag", "must", suite)
	// The wrong page count fails; the SHOULD check only warns.
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	mustContain(t, "pretty", r.stdout, "PASS  every resource over three pages [list]", "PASS  a city of the chosen country [completion]",
		"FAIL  a wrong page count [list]", "WARN  prompt errors [compliance]", "PASS  responses echo ids [compliance]",
		"5 passed, 1 failed, 1 warned")
	rep, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, tr := range rep.Tests {
		blocks[tr.Name] = tr.Block
	}
	if blocks["the page after it"] != "lists" || blocks["a city of the chosen country"] != "completions" || blocks["responses echo ids"] != "compliance" {
		t.Errorf("blocks %v", blocks)
	}
	for _, tr := range rep.Tests {
		if tr.Name == "prompt errors" && (!tr.IsWarning() || tr.Check == nil || tr.Check.ID != "P01") {
			t.Errorf("P01: %+v", tr)
		}
	}

	// Without the failing list test, a warning alone does not fail the run.
	r = mcptest(t, "run", "--no-color", "--tag", "protocol", "--tag", "paging", suite)
	if r.code != 0 {
		t.Fatalf("warnings only: want exit 0:\n%s", r)
	}
	mustContain(t, "pretty", r.stdout, "3 passed, 0 failed, 1 warned")
	// A broken MUST requirement fails it.
	r = mcptest(t, "run", "--no-color", "--tag", "must", suite)
	if r.code != 1 {
		t.Fatalf("MUST failure: want exit 1:\n%s", r)
	}
	mustContain(t, "pretty", r.stdout, "FAIL  invalid requests [compliance]", "MUST")
}

func TestNewBlocksValidateWithLocatedErrors(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
lists:
  - {name: l, server: demo, list: tool}
completions:
  - {name: c, server: demo, ref: {prompt: travel}, argument: {name: city}, context: null}
`)
	r := mcptest(t, "validate", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "errors", r.stderr, suite+`:6:35: /lists/0/list: unknown list "tool"`, suite+`:8:85: /completions/0/context: expected context`)
	suite = writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
compliance:
  - {name: typo, server: demo, check: J1}
`)
	r = mcptest(t, "validate", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "errors", r.stderr, `/compliance/0/check: unknown compliance check "J1" (did you mean "J01"?`)
}

// fixtureSuite has a server that works on a fixture copy and a test that
// hangs until interrupted.
const fixtureSuite = `
servers:
  demo:
    command: ["DEMO"]
    env: {DATA: "${fixture}"}
    fixture: ./data
tools:
  - name: slow
    server: demo
    tool: slow
    args: {ms: 60000}
  - name: the copy is not the original
    server: demo
    tool: echo
    args: {message: "${fixture}"}
    expect:
      - {target: "result.content[0].text", matcher: {starts-with: "TMP/mcptest-fixture-"}}
`

// TestFixtureCopiesRemovedAfterARunAndOnCtrlC, with the server shared by
// the run and with restart_policy after_write (whose processes are kept,
// or closed in the background, between tests).
func TestFixtureCopiesRemovedAfterARunAndOnCtrlC(t *testing.T) {
	for _, policy := range []string{"per_run", "after_write"} {
		t.Run(policy, func(t *testing.T) {
			fixtureCopiesRemoved(t, strings.Replace(fixtureSuite, "    fixture: ./data\n", "    fixture: ./data\n    restart_policy: "+policy+"\n", 1))
		})
	}
}

func fixtureCopiesRemoved(t *testing.T, suiteText string) {
	dir, tmp := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(suiteText, "restart_policy") {
		t.Fatal("the suite names no restart_policy")
	}
	text := strings.ReplaceAll(strings.ReplaceAll(suiteText, "DEMO", filepath.Join(binDir, "mcptest-demo-server")), "TMP", tmp)
	suite := filepath.Join(dir, "suite.yml")
	if err := os.WriteFile(suite, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"TMPDIR=" + tmp}
	r := mcptestEnv(t, env, "run", "--no-color", "--include", "original", suite)
	if r.code != 0 {
		t.Fatalf("run:\n%s", r)
	}
	wantEmpty(t, tmp)

	cmd := exec.Command(filepath.Join(binDir, "mcptest"), "run", "--reporter", "ndjson", suite)
	cmd.Dir = root
	cmd.Env = append(cleanEnv(), env...)
	events, started := ndjsonEvents(t, cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started()
	// Once the test is under way, with its fixture copy made and its server
	// up, interrupt as Ctrl-C would. The copy and the server are mcptest's
	// doing, with no event this process can wait on, so that part is a
	// bounded poll.
	awaitEvent(t, events, "test_started", "slow", 20*time.Second)
	waitFor(t, "the fixture copy and the server", 20*time.Second, func() bool {
		entries, _ := os.ReadDir(tmp)
		return len(entries) > 0 && len(liveProcs()) >= 3
	})
	if entries, _ := os.ReadDir(tmp); len(entries) == 0 {
		t.Fatal("no fixture copy was made")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("mcptest did not stop after SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code after SIGINT = %d, want 130", code)
	}
	wantEmpty(t, tmp)
	assertNoOrphans(t)
}

// wantEmpty fails when dir holds anything: a fixture copy left behind.
func wantEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind in %s: %s", dir, e.Name())
	}
}

// TestReportKeepsNewKindsThroughReRender re-renders a run of the new
// kinds with `mcptest report`: the canonical report holds them whole.
func TestReportKeepsNewKindsThroughReRender(t *testing.T) {
	suite := writeSuite(t, kindsSuite)
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "run", "--reporter", "json="+out, "--tag", "protocol", suite)
	if r.code != 0 {
		t.Fatalf("run:\n%s", r)
	}
	r = mcptest(t, "report", "--no-color", out, "--format", "pretty")
	mustContain(t, "re-render", r.stdout, "WARN  prompt errors [compliance]", "1 passed, 0 failed, 1 warned")
	rep, err := corereport.ReadRun(out)
	if err != nil || rep.ExitCode != 0 || rep.Summary.Failed != 0 || rep.Summary.Warned != 1 {
		t.Fatalf("report %v: exit %d summary %+v", err, rep.ExitCode, rep.Summary)
	}
	var statuses []report.Status
	for _, tr := range rep.Tests {
		statuses = append(statuses, tr.Status)
	}
	if len(statuses) != 2 {
		t.Errorf("statuses %v", statuses)
	}
}

// TestRecordAndReplayListsAndCompletions records the pages of a list test
// and a completion into a cassette, then replays them with no server.
func TestRecordAndReplayListsAndCompletions(t *testing.T) {
	dir := t.TempDir()
	live := `
servers:
  demo:
    command: ["DEMO"]
lists:
  - name: all resources
    server: demo
    list: resources
    expect:
      - {target: pages, matcher: {exact: 3}}
      - {target: result.resources.length, matcher: {exact: 48}}
completions:
  - name: city
    server: demo
    ref: {prompt: travel}
    argument: {name: city, value: "Os"}
    context: {country: "NO"}
    expect:
      - {target: result.completion.values, matcher: {exact: ["Oslo"]}}
`
	suite := filepath.Join(dir, "live.yml")
	if err := os.WriteFile(suite, []byte(strings.ReplaceAll(live, "DEMO", filepath.Join(binDir, "mcptest-demo-server"))), 0o644); err != nil {
		t.Fatal(err)
	}
	cassettes := filepath.Join(dir, "cassettes")
	if r := mcptest(t, "record", "--cassette-dir", cassettes, suite); r.code != 0 {
		t.Fatalf("record:\n%s", r)
	}
	replay := filepath.Join(dir, "replay.yml")
	text := strings.Replace(live, `command: ["DEMO"]`, "cassette: "+filepath.Join(cassettes, "demo.json"), 1)
	if err := os.WriteFile(replay, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcptest(t, "run", "--no-color", replay)
	if r.code != 0 {
		t.Fatalf("replay:\n%s", r)
	}
	mustContain(t, "replay", r.stdout, "2 passed, 0 failed")
}
