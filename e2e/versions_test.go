package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corereport "github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk/report"
)

// versionsSuite runs the same tests over stdio and Streamable HTTP at the
// last legacy revision and the first modern one. The resultType check
// passes only in the modern era, which puts resultType on every result:
// proof that the two runs really spoke different eras.
const versionsSuite = `
target_versions: ["2025-11-25", "2026-07-28"]
servers:
  local:
    command: ["DEMO"]
  remote:
    url: "URL"
tools:
  - name: echo over stdio
    server: local
    tool: echo
    args: {message: "hi"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "hi"}
  - name: echo over HTTP
    server: remote
    tool: echo
    args: {message: "hi"}
    expect:
      - target: result.content[0].text
        matcher: {exact: "hi"}
  - name: modern results carry resultType
    server: remote
    tool: add
    args: {a: 1, b: 2}
    expect:
      - target: result.resultType
        matcher: {exact: "complete"}
resources:
  - name: readme over stdio
    server: local
    uri: "demo://readme"
    expect:
      - target: result.contents[0].uri
        matcher: {exact: "demo://readme"}
`

// runVersions runs suite text (URL replaced by a live HTTP demo) with a
// pretty and a JSON report, and returns the result and the report, read
// through the schema.
func runVersions(t *testing.T, text string, args ...string) (result, *report.Run) {
	t.Helper()
	remote := strings.Contains(text, "URL")
	if remote {
		text = strings.ReplaceAll(text, "URL", startHTTPDemo(t))
	}
	suite := writeSuite(t, text)
	out := filepath.Join(t.TempDir(), "run.json")
	full := append([]string{"run", "--no-color", "--reporter", "pretty", "--reporter", "json=" + out}, args...)
	r := mcptest(t, append(full, suite)...)
	if !remote {
		// The HTTP demo is the test's own process, alive until cleanup.
		assertNoOrphans(t)
	}
	run, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatalf("report: %v\n%s", err, r)
	}
	return r, run
}

func TestTargetVersionsFanOutOverStdioAndHTTP(t *testing.T) {
	r, run := runVersions(t, versionsSuite)
	if r.code != 1 {
		t.Fatalf("want exit 1 (the resultType check fails at 2025-11-25):\n%s", r)
	}
	var got []string
	for _, tr := range run.Tests {
		got = append(got, tr.Name+" | "+tr.ProtocolVersion+" | "+string(tr.Status))
	}
	want := []string{
		"echo over stdio [2025-11-25] | 2025-11-25 | passed",
		"echo over HTTP [2025-11-25] | 2025-11-25 | passed",
		"modern results carry resultType [2025-11-25] | 2025-11-25 | failed",
		"readme over stdio [2025-11-25] | 2025-11-25 | passed",
		"echo over stdio [2026-07-28] | 2026-07-28 | passed",
		"echo over HTTP [2026-07-28] | 2026-07-28 | passed",
		"modern results carry resultType [2026-07-28] | 2026-07-28 | passed",
		"readme over stdio [2026-07-28] | 2026-07-28 | passed",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("tests:\n%s\n%s", strings.Join(got, "\n"), r)
	}
	wantBy := []report.VersionSummary{
		{ProtocolVersion: "2025-11-25", Total: 4, Passed: 3, Failed: 1},
		{ProtocolVersion: "2026-07-28", Total: 4, Passed: 4},
	}
	if !slices.Equal(run.VersionSummaries, wantBy) || run.Summary.Total != 8 || run.Summary.Failed != 1 {
		t.Errorf("summary %+v, per revision %+v", run.Summary, run.VersionSummaries)
	}

	// One server start per revision, each recording what it spoke.
	var servers []string
	for _, s := range run.Servers {
		servers = append(servers, strings.Join([]string{s.Name, s.Transport, s.TargetVersion, s.ProtocolVersion,
			strings.Join(s.SupportedVersions, ","), s.ServerName, s.Error}, " | "))
	}
	all := "2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"
	wantServers := []string{
		"local | stdio | 2025-11-25 | 2025-11-25 |  | mcptest-demo | ",
		"local | stdio | 2026-07-28 | 2026-07-28 | " + all + " | mcptest-demo | ",
		"remote | streamable | 2025-11-25 | 2025-11-25 |  | mcptest-demo | ",
		"remote | streamable | 2026-07-28 | 2026-07-28 | " + all + " | mcptest-demo | ",
	}
	if !slices.Equal(servers, wantServers) {
		t.Errorf("servers:\n%s", strings.Join(servers, "\n"))
	}

	// The failed legacy test shows its exchange: no protocol _meta.
	failed := run.Tests[2]
	if len(failed.Frames) < 2 || strings.Contains(string(failed.Frames[0].Data), "io.modelcontextprotocol/protocolVersion") {
		t.Errorf("legacy frames = %+v", failed.Frames)
	}
	mustContain(t, "pretty output", r.stdout,
		"protocol revisions:",
		"2025-11-25  3 passed, 1 failed, 0 errored, 0 skipped  · local spoke 2025-11-25, remote spoke 2025-11-25",
		"2026-07-28  4 passed, 0 failed, 0 errored, 0 skipped  · local spoke 2026-07-28, remote spoke 2026-07-28",
		"7 passed, 1 failed, 0 errored, 0 skipped (8 tests)")
}

func TestTargetVersionSelectsOneRevision(t *testing.T) {
	r, run := runVersions(t, versionsSuite, "--target-version", "2026-07-28")
	if r.code != 0 {
		t.Fatalf("want exit 0 at 2026-07-28 alone:\n%s", r)
	}
	if len(run.Tests) != 4 || len(run.Servers) != 2 {
		t.Fatalf("%d tests, %d servers", len(run.Tests), len(run.Servers))
	}
	for _, tr := range run.Tests {
		if tr.ProtocolVersion != "2026-07-28" || strings.Contains(tr.Name, "[") || strings.Contains(tr.ID, "[") {
			t.Errorf("test %q (%s) at %q", tr.Name, tr.ID, tr.ProtocolVersion)
		}
	}
	for _, s := range run.Servers {
		if s.TargetVersion != "2026-07-28" || s.ProtocolVersion != "2026-07-28" {
			t.Errorf("server %+v", s)
		}
	}

	offline := writeSuite(t, strings.ReplaceAll(versionsSuite, "URL", "http://127.0.0.1:1/mcp"))
	r = mcptest(t, "run", "--target-version", "2024-11-05", offline)
	if r.code != 2 || !strings.Contains(r.stderr, "--target-version 2024-11-05 is not in the suite's target_versions") ||
		!strings.Contains(r.stderr, "the suite lists 2025-11-25, 2026-07-28") {
		t.Errorf("unlisted revision:\n%s", r)
	}
	// A cassette holds one revision: record refuses a fan-out before
	// starting anything.
	r = mcptest(t, "record", "--cassette-dir", t.TempDir(), offline)
	if r.code != 2 || !strings.Contains(r.stderr, "the suites run at 2025-11-25, 2026-07-28, and a cassette holds one protocol revision; pick one with --target-version") {
		t.Errorf("record of a fan-out:\n%s", r)
	}
}

// modernOnlySuite runs a legacy-only server at 2026-07-28 next to one that
// speaks it, and calls a tool that asks the client for input.
const modernOnlySuite = `
target_versions: ["2026-07-28"]
servers:
  legacy:
    command: ["CHAOS"]
  demo:
    command: ["DEMO"]
tools:
  - name: a legacy server at the modern revision
    server: legacy
    tool: echo
    args: {message: "hi"}
  - name: the demo server answers
    server: demo
    tool: echo
    args: {message: "hi"}
  - name: input is never a silent pass
    server: demo
    tool: confirm
    args: {action: "deploy"}
`

func TestModernRevisionErrorsClearlyOnALegacyServer(t *testing.T) {
	r, run := runVersions(t, strings.ReplaceAll(modernOnlySuite, "CHAOS", chaosServer))
	if r.code != 2 {
		t.Fatalf("want exit 2 (errored tests):\n%s", r)
	}
	byName := map[string]report.Test{}
	for _, tr := range run.Tests {
		byName[tr.Name] = tr
	}
	legacy := byName["a legacy server at the modern revision"]
	if legacy.Status != report.StatusErrored || legacy.Error == nil || legacy.Error.Kind != "server_start" ||
		!strings.Contains(legacy.Error.Message, `server "legacy" does not speak protocol revision 2026-07-28: server/discover answered JSON-RPC error -32601: method not found: server/discover`) {
		t.Errorf("legacy server test = %+v", legacy.Error)
	}
	if st := byName["the demo server answers"].Status; st != report.StatusPassed {
		t.Errorf("demo test %s: only the failing server's tests may error", st)
	}
	input := byName["input is never a silent pass"]
	if input.Status != report.StatusErrored || input.Error == nil || input.Error.Kind != "input_required" ||
		!strings.Contains(input.Error.Message, `server asked for input (MRTR), and no client mock is declared to answer it: elicitation/create (key "confirm")`) {
		t.Errorf("input test = %+v", input.Error)
	}
	mustContain(t, "pretty output", r.stdout, "does not speak protocol revision 2026-07-28", "server asked for input (MRTR)",
		"2026-07-28  1 passed, 0 failed, 2 errored, 0 skipped  · demo spoke 2026-07-28, legacy did not start")
}

func TestModernRevisionOnServerMemory(t *testing.T) {
	entry := npmServer(t, "server-memory")
	suite := `
target_versions: ["2025-11-25", "2026-07-28"]
servers:
  mem:
    command: ["node", "` + entry + `"]
    env: {MEMORY_FILE_PATH: "` + filepath.Join(t.TempDir(), "memory.jsonl") + `"}
tools:
  - name: read the graph
    server: mem
    tool: read_graph
    expect:
      - target: result.structuredContent.entities
        matcher: {exact: []}
`
	r, run := runVersions(t, suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	if len(run.Tests) != 2 || run.Tests[0].Status != report.StatusPassed || run.Tests[1].Status != report.StatusErrored {
		raw, _ := json.Marshal(run.Tests)
		t.Fatalf("tests = %s", raw)
	}
	if e := run.Tests[1].Error; e == nil || !strings.Contains(e.Message, `server "mem" does not speak protocol revision 2026-07-28: server/discover answered JSON-RPC error -32601`) {
		t.Errorf("error = %+v", e)
	}
	if len(run.Servers) != 2 || run.Servers[0].ProtocolVersion != "2025-11-25" || run.Servers[1].Error == "" {
		t.Errorf("servers = %+v", run.Servers)
	}
}

// mrtrSuite: at 2026-07-28 the demo's confirm tool asks for an elicitation
// as an input request (MRTR); the client mocks answer it, over stdio and
// HTTP, and each test's own mock overrides the server's.
const mrtrSuite = `
target_versions: ["2026-07-28"]
servers:
  local:
    command: ["DEMO"]
    client:
      elicitation: {action: accept, content: {ok: true}}
  remote:
    url: "URL"
    client:
      elicitation: {action: accept, content: {ok: true}}
tools:
  - name: accepted over stdio
    server: local
    tool: confirm
    args: {action: deploy}
    expect:
      - target: result.content[0].text
        matcher: {exact: "deploy: confirmed=true"}
  - name: accepted over HTTP
    server: remote
    tool: confirm
    args: {action: deploy}
    expect:
      - target: result.content[0].text
        matcher: {exact: "deploy: confirmed=true"}
  - name: declined by the test's own mock
    server: local
    tool: confirm
    args: {action: drop}
    client:
      elicitation: {action: decline}
    expect:
      - target: result.content[0].text
        matcher: {exact: "drop: decline"}
      - target: server_requests[0].method
        matcher: {exact: "elicitation/create"}
`

func TestModernInputRequestsAreAnsweredByMocks(t *testing.T) {
	r, run := runVersions(t, mrtrSuite)
	if r.code != 0 {
		t.Fatalf("want every test to pass:\n%s", r)
	}
	if len(run.Tests) != 3 {
		t.Fatalf("%d tests", len(run.Tests))
	}
}

// comboSuite mixes the kinds and lifecycle options across two revisions:
// a per_test server on fixture copies with client mocks, a capturing
// test, a list, a completion and a compliance entry.
const comboSuite = `
target_versions: ["2025-11-25", "2026-07-28"]
servers:
  demo:
    command: ["DEMO"]
    restart_policy: per_test
    fixture: ./fx
    client:
      elicitation: {action: accept, content: {ok: true}}
tools:
  - name: echo fixture
    server: demo
    tool: echo
    args: {message: "${fixture}"}
    expect:
      - {target: "result.content[0].text", matcher: {contains: "mcptest-fixture"}}
  - name: progress
    server: demo
    tool: progress
    args: {steps: 2}
    progress: true
    expect:
      - {target: progress.count, matcher: {exact: 2}}
lists:
  - name: tools
    server: demo
    list: tools
completions:
  - name: city
    server: demo
    ref: {prompt: travel}
    argument: {name: city, value: "Os"}
    expect:
      - {target: result.completion.values, matcher: {contains: ["Oslo"]}}
compliance:
  - name: ids echoed
    server: demo
    check: "J01"
`

// TestEveryKindRunsAtEveryRevision: each test of the fan-out runs, and is
// reported, at its own revision (compliance checks included), and the
// report lists one server per revision.
func TestEveryKindRunsAtEveryRevision(t *testing.T) {
	suite := writeSuite(t, comboSuite)
	if err := os.Mkdir(filepath.Join(filepath.Dir(suite), "fx"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "run", "--reporter", "json="+out, suite)
	if r.code != 0 {
		t.Fatalf("want every test to pass:\n%s", r)
	}
	run, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Tests) != 10 {
		t.Fatalf("%d tests, want 10", len(run.Tests))
	}
	for _, tr := range run.Tests {
		if !strings.HasSuffix(tr.Name, "["+tr.ProtocolVersion+"]") {
			t.Errorf("%s ran at %q", tr.Name, tr.ProtocolVersion)
		}
	}
	if len(run.Servers) != 2 || run.Servers[0].ProtocolVersion != "2025-11-25" || run.Servers[1].ProtocolVersion != "2026-07-28" {
		t.Errorf("servers %+v", run.Servers)
	}
	for _, v := range run.VersionSummaries {
		if v.Total != 5 || v.Passed != 5 {
			t.Errorf("revision summary %+v", v)
		}
	}
}
