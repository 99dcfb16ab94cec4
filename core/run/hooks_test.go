package run_test

import (
	"github.com/mcptest/mcptest/internal/proc"

	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// hookSuite loads a suite written in a fresh directory, with files (such
// as a .env) beside it, and plans it against the eq matcher. In the text,
// DEMO is the demo server, DIR the directory and HOOKS the test hook
// scripts (testdata/hooks).
func hookSuite(t *testing.T, suite string, files map[string]string) (*plan.Plan, *plugin.Host, string) {
	t.Helper()
	dir := t.TempDir()
	hooks, err := filepath.Abs(filepath.Join("testdata", "hooks"))
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer("DIR", dir, "HOOKS", hooks)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(r.Replace(withDemo(t, text))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "suite.yml")
	if err := os.WriteFile(path, []byte(r.Replace(withDemo(t, suite))), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := &sdk.Plugin{Name: "eq", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": &eqMatcher{}}}
	pdir := t.TempDir()
	writeManifest(t, pdir, p)
	pl, err := plan.BuildWith([]*config.Suite{s}, plugin.NewRegistry([]plugin.Source{{Dir: pdir}}), plan.Options{Run: true})
	if err != nil {
		t.Fatal(err)
	}
	l := inproc.New(p)
	h := plugin.NewHost(l, plugin.HostOptions{})
	t.Cleanup(func() { h.Close(); l.Close() })
	return pl, h, dir
}

// execute runs a plan with a short hook timeout.
func execute(t *testing.T, pl *plan.Plan, h *plugin.Host, opts run.Options) *report.Run {
	t.Helper()
	opts.Host = h
	if opts.HookTimeout == 0 {
		opts.HookTimeout = 20 * time.Second
	}
	return run.Execute(context.Background(), pl, opts)
}

// readLines reads a log file the hooks appended to.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// hookTestsByName indexes a run's tests.
func hookTestsByName(res *report.Run) map[string]report.Test {
	m := map[string]report.Test{}
	for _, tr := range res.Tests {
		m[tr.Name] = tr
	}
	return m
}

// twoTests are two passing tool tests; the request transform logs when
// each test's call is made.
const twoTests = `
servers:
  demo:
    command: ["DEMO"]
defaultTest:
  transform:
    request: "sh -c 'echo test $$MCPTEST_TEST_NAME >> DIR/log; cat'"
tools:
  - name: one
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "hi"}}
  - name: two
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "hi"}}
`

func TestHookOrderOverTwoTests(t *testing.T) {
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeAll: "sh -c 'echo beforeAll >> DIR/log'"
  beforeEach: "sh -c 'echo beforeEach $$MCPTEST_TEST_NAME >> DIR/log'"
  afterEach: "sh -c 'echo afterEach $$MCPTEST_TEST_NAME >> DIR/log'"
  afterAll:
    - "sh -c 'echo afterAll first >> DIR/log'"
    - "sh -c 'echo afterAll second >> DIR/log; echo to stdout; echo to stderr >&2'"
`, nil)
	if !pl.UsesHooks() || !pl.PerTestHooks() {
		t.Fatalf("plan: UsesHooks %v PerTestHooks %v", pl.UsesHooks(), pl.PerTestHooks())
	}
	res := execute(t, pl, h, run.Options{Concurrency: 8})
	want := []string{
		"beforeAll",
		"beforeEach one", "test one", "afterEach one",
		"beforeEach two", "test two", "afterEach two",
		"afterAll first", "afterAll second",
	}
	if got := readLines(t, filepath.Join(dir, "log")); !slices.Equal(got, want) {
		t.Errorf("order:\n got %q\nwant %q", got, want)
	}
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %+v", res.ExitCode, res.Tests)
	}
	if len(res.Hooks) != 3 || res.Hooks[0].Phase != report.HookBeforeAll || res.Hooks[2].Phase != report.HookAfterAll {
		t.Fatalf("run hooks = %+v", res.Hooks)
	}
	last := res.Hooks[2]
	if last.Status != report.StatusPassed || last.Stdout != "to stdout\n" || last.Stderr != "to stderr\n" ||
		last.ExitCode == nil || *last.ExitCode != 0 || last.Suite == "" || last.Mode != "" || last.DurationMS <= 0 {
		t.Errorf("afterAll record = %+v", last)
	}
	for _, tr := range res.Tests {
		if len(tr.Hooks) != 2 || tr.Hooks[0].Phase != report.HookBeforeEach || tr.Hooks[1].Phase != report.HookAfterEach || tr.Hooks[0].Suite != "" {
			t.Errorf("%s: hooks = %+v", tr.Name, tr.Hooks)
		}
	}
}

func TestOnlyRunLevelHooksKeepTestsConcurrent(t *testing.T) {
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeAll: "sh -c 'echo beforeAll >> DIR/log'"
  afterAll: "sh -c 'echo afterAll >> DIR/log'"
`, nil)
	if !pl.UsesHooks() || pl.PerTestHooks() {
		t.Fatalf("plan: UsesHooks %v PerTestHooks %v", pl.UsesHooks(), pl.PerTestHooks())
	}
	res := execute(t, pl, h, run.Options{})
	got := readLines(t, filepath.Join(dir, "log"))
	if res.ExitCode != 0 || len(got) != 4 || got[0] != "beforeAll" || got[3] != "afterAll" {
		t.Errorf("exit %d, log %q", res.ExitCode, got)
	}
	for _, tr := range res.Tests {
		if tr.Hooks != nil {
			t.Errorf("%s: per-test hooks recorded: %+v", tr.Name, tr.Hooks)
		}
	}
}

func TestBeforeAllFailureFailsEveryTestAndAfterAllStillRuns(t *testing.T) {
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeAll:
    - "sh -c 'echo seeding failed >&2; exit 3'"
    - "sh -c 'echo never >> DIR/log'"
  beforeEach: "sh -c 'echo beforeEach >> DIR/log'"
  afterAll: "sh -c 'echo afterAll >> DIR/log'"
`, nil)
	res := execute(t, pl, h, run.Options{})
	if got := readLines(t, filepath.Join(dir, "log")); !slices.Equal(got, []string{"afterAll"}) {
		t.Errorf("log = %q", got)
	}
	for _, tr := range res.Tests {
		if tr.Status != report.StatusFailed || tr.Error == nil || tr.Error.Kind != "hook" ||
			!strings.Contains(tr.Error.Message, "exited with status 3") || !strings.Contains(tr.Error.Message, "seeding failed") ||
			!strings.Contains(tr.Error.Message, "beforeAll") {
			t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Error)
		}
	}
	if res.ExitCode != 1 {
		t.Errorf("exit %d", res.ExitCode)
	}
	if len(res.Hooks) != 2 || res.Hooks[0].Status != report.StatusFailed || *res.Hooks[0].ExitCode != 3 || res.Hooks[1].Phase != report.HookAfterAll {
		t.Errorf("run hooks = %+v", res.Hooks)
	}
}

func TestBeforeEachFailureFailsThatTestOnly(t *testing.T) {
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeEach: "sh -c 'test \"$$MCPTEST_TEST_NAME\" != one || { echo no session >&2; exit 1; }'"
  afterEach: "sh -c 'echo afterEach $$MCPTEST_TEST_NAME >> DIR/log'"
`, nil)
	res := execute(t, pl, h, run.Options{})
	want := []string{"afterEach one", "test two", "afterEach two"}
	if got := readLines(t, filepath.Join(dir, "log")); !slices.Equal(got, want) {
		t.Errorf("log = %q, want %q (test one must not be dispatched)", got, want)
	}
	tests := hookTestsByName(res)
	one := tests["one"]
	if one.Status != report.StatusFailed || one.Error == nil || !strings.Contains(one.Error.Message, "no session") || len(one.Frames) != 0 {
		t.Errorf("one: %s %+v", one.Status, one.Error)
	}
	if len(one.Hooks) != 2 || one.Hooks[0].Status != report.StatusFailed || one.Hooks[1].Status != report.StatusPassed {
		t.Errorf("one: hooks %+v", one.Hooks)
	}
	if tests["two"].Status != report.StatusPassed {
		t.Errorf("two: %s %+v", tests["two"].Status, tests["two"].Error)
	}
}

func TestAfterHookFailuresAreReportedOnly(t *testing.T) {
	pl, h, _ := hookSuite(t, twoTests+`
hooks:
  afterEach:
    - "sh -c 'exit 4'"
    - "sh -c 'echo still runs'"
  afterAll: "sh -c 'echo teardown broke >&2; exit 5'"
`, nil)
	res := execute(t, pl, h, run.Options{})
	if res.ExitCode != 0 || res.Summary.Passed != 2 {
		t.Fatalf("exit %d summary %+v", res.ExitCode, res.Summary)
	}
	for _, tr := range res.Tests {
		if len(tr.Hooks) != 2 || tr.Hooks[0].Status != report.StatusFailed || tr.Hooks[1].Stdout != "still runs\n" {
			t.Errorf("%s: hooks %+v", tr.Name, tr.Hooks)
		}
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Status != report.StatusFailed || !strings.Contains(res.Hooks[0].Error, "exited with status 5") ||
		res.Hooks[0].Stderr != "teardown broke\n" {
		t.Errorf("afterAll = %+v", res.Hooks)
	}
}

func TestHookThatCannotStart(t *testing.T) {
	pl, h, _ := hookSuite(t, twoTests+`
hooks:
  beforeEach: "./no-such-hook --flag"
`, nil)
	res := execute(t, pl, h, run.Options{})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusFailed || !strings.Contains(tr.Error.Message, "no-such-hook") || tr.Hooks[0].ExitCode != nil {
			t.Errorf("%s: %s %+v %+v", tr.Name, tr.Status, tr.Error, tr.Hooks)
		}
	}
}

func TestHookTimeoutKillsItsProcessGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process checks read /proc")
	}
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeAll: "sh -c 'sleep 60 & echo $$! > DIR/child.pid; wait'"
`, nil)
	start := time.Now()
	res := execute(t, pl, h, run.Options{HookTimeout: 300 * time.Millisecond})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("run took %s", d)
	}
	if len(res.Hooks) != 1 || !strings.Contains(res.Hooks[0].Error, "timed out after 300ms") || res.Hooks[0].ExitCode != nil {
		t.Fatalf("hooks = %+v", res.Hooks)
	}
	for _, tr := range res.Tests {
		if tr.Status != report.StatusFailed || !strings.Contains(tr.Error.Message, "timed out") {
			t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Error)
		}
	}
	if pid := pidIn(t, filepath.Join(dir, "child.pid")); !proc.WaitGone(pid, 5*time.Second) {
		t.Errorf("process %d outlived its hook", pid)
	}
}

func TestBackgroundProcessesOfHooksAreStoppedWhenTheSuiteEnds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process checks read /proc")
	}
	// The first fixture keeps the hook's stdout open: the hook still
	// counts as finished once it exits.
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeAll:
    - "sh -c 'sleep 60 & echo $$! > DIR/held.pid'"
    - "sh -c 'sleep 60 >/dev/null 2>&1 & echo $$! > DIR/quiet.pid'"
  afterAll: "sh -c 'echo afterAll >> DIR/log'"
`, nil)
	res := execute(t, pl, h, run.Options{})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %+v %+v", res.ExitCode, res.Hooks, res.Tests)
	}
	for _, f := range []string{"held.pid", "quiet.pid"} {
		if pid := pidIn(t, filepath.Join(dir, f)); !proc.WaitGone(pid, 5*time.Second) {
			t.Errorf("process %d outlived its hook", pid)
		}
	}
}

// pidIn reads a pid file a hook wrote.
func pidIn(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// payloads reads the payloads ctx.sh logged, one JSON object a line.
func payloads(t *testing.T, path string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range readLines(t, path) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("payload %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestContextHookPayloadsAndPatches(t *testing.T) {
	pl, h, dir := hookSuite(t, twoTests+`
variables:
  region: {value: "us-west"}
hooks:
  beforeAll:
    - command: "sh HOOKS/ctx.sh DIR/payloads '{\"env\": {\"TOKEN\": \"t0k3n\"}, \"vars\": {\"session\": {\"id\": 7}}}'"
      mode: context
    - "sh -c 'echo token=$$TOKEN base=$$BASE_URL phase=$$MCPTEST_HOOK_PHASE >> DIR/env.log'"
  beforeEach:
    - command: "sh HOOKS/ctx.sh DIR/payloads '{\"vars\": {\"per_test\": \"x\"}, \"env\": {\"TOKEN\": \"per-test\"}}'"
      mode: context
  afterEach:
    - command: "sh HOOKS/ctx.sh DIR/payloads ''"
      mode: context
    - "sh -c 'echo token=$$TOKEN >> DIR/env.log'"
  afterAll:
    - command: "sh HOOKS/ctx.sh DIR/payloads 'null'"
      mode: context
    - "sh -c 'echo token=$$TOKEN >> DIR/env.log'"
`, map[string]string{".env": "BASE_URL=http://localhost:8080\n"})
	res := execute(t, pl, h, run.Options{})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %+v %+v", res.ExitCode, res.Hooks, res.Tests)
	}
	wantEnv := []string{
		"token=t0k3n base=http://localhost:8080 phase=beforeAll",
		"token=per-test", "token=per-test", // afterEach sees its test's patch
		"token=t0k3n", // afterAll sees the suite's scope again
	}
	if got := readLines(t, filepath.Join(dir, "env.log")); !slices.Equal(got, wantEnv) {
		t.Errorf("env log:\n got %q\nwant %q", got, wantEnv)
	}
	phases := readLines(t, filepath.Join(dir, "payloads.phase"))
	wantPhases := []string{"beforeAll", "beforeEach", "afterEach", "beforeEach", "afterEach", "afterAll"}
	if !slices.Equal(phases, wantPhases) {
		t.Errorf("MCPTEST_HOOK_PHASE: %q", phases)
	}
	ps := payloads(t, filepath.Join(dir, "payloads"))
	if len(ps) != 6 {
		t.Fatalf("%d payloads", len(ps))
	}
	all := ps[0]
	if all["phase"] != "beforeAll" || all["test"] != nil || all["result"] != nil {
		t.Errorf("beforeAll payload: %v", all)
	}
	if suite, _ := all["suite"].(map[string]any); suite["name"] != "suite" {
		t.Errorf("suite: %v", all["suite"])
	}
	if env, _ := all["env"].(map[string]any); env["BASE_URL"] != "http://localhost:8080" || env["TOKEN"] != nil {
		t.Errorf("beforeAll env (the dotenv, no patch yet): %v", all["env"])
	}
	if vars, _ := all["vars"].(map[string]any); vars["region"] != "us-west" {
		t.Errorf("beforeAll vars: %v", all["vars"])
	}
	each := ps[1]
	if test, _ := each["test"].(map[string]any); test["name"] != "one" || test["tool"] != "echo" {
		t.Errorf("beforeEach test: %v", each["test"])
	}
	if env, _ := each["env"].(map[string]any); env["TOKEN"] != "t0k3n" {
		t.Errorf("beforeEach env: %v", each["env"])
	}
	if vars, _ := each["vars"].(map[string]any); vars["region"] != "us-west" || vars["per_test"] != nil ||
		!reflectEqualJSON(vars["session"], `{"id":7}`) {
		t.Errorf("beforeEach vars: %v", each["vars"])
	}
	after := ps[2]
	if r, _ := after["result"].(map[string]any); r["verdict"] != "pass" {
		t.Errorf("afterEach result: %v", after["result"])
	}
	if vars, _ := after["vars"].(map[string]any); vars["per_test"] != "x" {
		t.Errorf("afterEach vars: %v", after["vars"])
	}
	// The second test starts from the suite's scope, not the first test's.
	if vars, _ := ps[3]["vars"].(map[string]any); vars["per_test"] != nil {
		t.Errorf("a test's patch leaked into the next test: %v", vars)
	}
	final := ps[5]
	if r, _ := final["result"].(map[string]any); r["verdict"] != "pass" || r["passed"] != 2.0 || r["total"] != 2.0 {
		t.Errorf("afterAll result: %v", final["result"])
	}
	for _, hk := range res.Hooks {
		if hk.Mode == "context" && hk.Stdout != "" {
			t.Errorf("a context hook's patch reached the report: %+v", hk)
		}
	}
}

func reflectEqualJSON(v any, want string) bool {
	b, _ := json.Marshal(v)
	return string(b) == want
}

func TestContextHookSkips(t *testing.T) {
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeEach:
    - "sh -c 'echo beforeEach $$MCPTEST_TEST_NAME >> DIR/log'"
    - command: "sh -c 'test \"$$MCPTEST_TEST_NAME\" != two || echo \"{\\\"skip\\\": {\\\"reason\\\": \\\"no creds\\\"}}\"'"
      mode: context
    - "sh -c 'echo after the skip $$MCPTEST_TEST_NAME >> DIR/log'"
  afterEach:
    - command: "sh HOOKS/ctx.sh DIR/payloads '{\"skip\": true}'"
      mode: context
`, nil)
	res := execute(t, pl, h, run.Options{})
	want := []string{"beforeEach one", "after the skip one", "test one", "beforeEach two"}
	if got := readLines(t, filepath.Join(dir, "log")); !slices.Equal(got, want) {
		t.Errorf("log:\n got %q\nwant %q", got, want)
	}
	tests := hookTestsByName(res)
	two := tests["two"]
	if two.Status != report.StatusSkipped || two.Error == nil || two.Error.Message != "beforeEach hook: no creds" {
		t.Errorf("two: %s %+v", two.Status, two.Error)
	}
	if len(two.Hooks) != 3 || two.Hooks[1].Skip != "no creds" || two.Hooks[2].Phase != report.HookAfterEach {
		t.Errorf("two: hooks %+v", two.Hooks)
	}
	// A skip asked in an after phase changes nothing.
	if tests["one"].Status != report.StatusPassed {
		t.Errorf("one: %s", tests["one"].Status)
	}
	ps := payloads(t, filepath.Join(dir, "payloads"))
	if r, _ := ps[1]["result"].(map[string]any); r["verdict"] != "skip" || r["message"] != "beforeEach hook: no creds" {
		t.Errorf("afterEach result of a skipped test: %v", ps[1]["result"])
	}
	if res.ExitCode != 0 || res.Summary.Skipped != 1 {
		t.Errorf("exit %d summary %+v", res.ExitCode, res.Summary)
	}
}

func TestBeforeAllSkipSkipsTheSuite(t *testing.T) {
	pl, h, dir := hookSuite(t, twoTests+`
hooks:
  beforeAll:
    - command: "sh HOOKS/ctx.sh DIR/payloads '{\"skip\": {\"reason\": \"staging is down\"}}'"
      mode: context
  beforeEach: "sh -c 'echo beforeEach >> DIR/log'"
  afterAll: "sh -c 'echo afterAll >> DIR/log'"
`, nil)
	res := execute(t, pl, h, run.Options{})
	if got := readLines(t, filepath.Join(dir, "log")); !slices.Equal(got, []string{"afterAll"}) {
		t.Errorf("log = %q", got)
	}
	for _, tr := range res.Tests {
		if tr.Status != report.StatusSkipped || tr.Error.Message != "beforeAll hook: staging is down" {
			t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Error)
		}
	}
}

func TestContextHookOutputIsChecked(t *testing.T) {
	for name, tc := range map[string]struct{ patch, want string }{
		"unknown key":          {`{"env": {}, "args": {"q": 1}}`, `unknown key "args"`},
		"not JSON":             {`debug: starting`, "not a JSON object"},
		"not an object":        {`[1, 2]`, "not a JSON object"},
		"two values":           {`{} {}`, "more than one JSON value"},
		"env value not string": {`{"env": {"PORT": 8080}}`, "PORT must be a string"},
		"bad env name":         {`{"env": {"A=B": "x"}}`, "not a valid environment variable name"},
		"vars not an object":   {`{"vars": "x"}`, "vars: want a JSON object"},
		"skip with extra keys": {`{"skip": {"reason": "x", "why": 1}}`, `unknown field "why"`},
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{"patch": tc.patch}
			pl, h, _ := hookSuite(t, twoTests+`
hooks:
  beforeEach:
    - command: "sh -c 'cat DIR/patch'"
      mode: context
`, files)
			res := execute(t, pl, h, run.Options{})
			for _, tr := range res.Tests {
				if tr.Status != report.StatusFailed || tr.Error == nil || !strings.Contains(tr.Error.Message, tc.want) ||
					!strings.Contains(tr.Error.Message, "at most env, vars and skip") {
					t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Error)
				}
			}
		})
	}
}

func TestContextHookTimeout(t *testing.T) {
	pl, h, _ := hookSuite(t, twoTests+`
hooks:
  afterEach:
    - command: "sleep 30"
      mode: context
`, nil)
	res := execute(t, pl, h, run.Options{HookTimeout: 200 * time.Millisecond})
	for _, tr := range res.Tests {
		if tr.Status != report.StatusPassed || len(tr.Hooks) != 1 || !strings.Contains(tr.Hooks[0].Error, "timed out") {
			t.Errorf("%s: %s %+v", tr.Name, tr.Status, tr.Hooks)
		}
	}
}
