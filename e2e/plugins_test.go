package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// install installs a fixture plugin into a fresh plugin directory with
// `mcptest plugins install` and returns the directory.
func install(t *testing.T, fixture string) string {
	t.Helper()
	dir := t.TempDir()
	// t.TempDir honours the umask; under 002 the folder would be group
	// writable, and mcptest rightly refuses plugins in it.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := mcptest(t, "plugins", "install", "--dir", dir, filepath.Join(fixtures, fixture))
	if r.code != 0 {
		t.Fatalf("install %s:\n%s", fixture, r)
	}
	return dir
}

func TestPluginsListShowsBundled(t *testing.T) {
	r := mcptest(t, "plugins", "list")
	if r.code != 0 {
		t.Fatalf("plugins list:\n%s", r)
	}
	mustContain(t, "plugins list", r.stdout, "text 0.1.0", "pretty 0.1.0", "json 0.1.0", "(bundled)",
		"matcher:  contains, contains-all, contains-any, exact, icontains", "reporter: json", "checksum: ok")
	assertNoOrphans(t)
}

func TestPrivateMatcherWithoutRebuild(t *testing.T) {
	dir := install(t, "shout")
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: loud echo passes
    server: demo
    tool: echo
    args: {message: "HELLO"}
    expect:
      - target: result.content[0].text
        matcher: {shouted: true}
  - name: quiet echo fails
    server: demo
    tool: echo
    args: {message: "hello"}
    expect:
      - target: result.content[0].text
        matcher: {shouted: true}
`)
	r := mcptest(t, "run", "--plugin-dir", dir, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	mustContain(t, "output", r.stdout, "loud echo passes", "quiet echo fails", "not upper case", "1 passed", "1 failed")
	// Without the directory the key is unknown, with a clear error.
	r = mcptest(t, "run", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2 without the plugin:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, `unknown matcher "shouted"`)
	assertNoOrphans(t)
}

func TestPrivateReporterShadowsBundledFormats(t *testing.T) {
	dir := install(t, "altjson")
	list := mcptest(t, "plugins", "list", "--plugin-dir", dir)
	mustContain(t, "plugins list", list.stdout, "altjson 0.9.0",
		"shadows:  reporter json of json@0.1.0", "shadowed: reporter json by altjson@0.9.0",
		"shadows:  reporter junit of junit@0.1.0", "shadowed: reporter junit by altjson@0.9.0")
	suite := writeSuite(t, mixedSuite)
	for _, format := range []string{"json", "junit"} {
		out := filepath.Join(t.TempDir(), "report")
		r := mcptest(t, "run", "--plugin-dir", dir, "--reporter", format+"="+out, suite)
		if r.code != 1 {
			t.Fatalf("want exit 1:\n%s", r)
		}
		b, _ := os.ReadFile(out)
		if strings.TrimSpace(string(b)) != "ALTJSON passed=1 failed=2 total=3" {
			t.Fatalf("the private reporter did not render %s:\n%s\n%s", format, b, r)
		}
	}
}

func TestChecksumMismatchIsRefused(t *testing.T) {
	dir := install(t, "shout")
	exe := filepath.Join(dir, "shout", "mcptest-plugin-shout")
	f, err := os.OpenFile(exe, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("tampered"))
	f.Close()
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    args: {message: "HI"}
    expect:
      - target: result.content[0].text
        matcher: {shouted: true}
`)
	r := mcptest(t, "run", "--plugin-dir", dir, suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "plugin shout@1.0.0", "checksum mismatch", "mcptest plugins install")
	list := mcptest(t, "plugins", "list", "--plugin-dir", dir)
	mustContain(t, "plugins list", list.stdout, "checksum: mismatch")
	verify := mcptest(t, "plugins", "verify", "--plugin-dir", dir)
	if verify.code != 2 {
		t.Fatalf("verify should fail:\n%s", verify)
	}
	mustContain(t, "verify", verify.stdout, "FAIL shout@1.0.0", "checksum mismatch")
	assertNoOrphans(t)
}

func TestProtocolMismatchIsExplained(t *testing.T) {
	dir := install(t, "wrongproto")
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: t
    server: demo
    tool: echo
    args: {message: "x"}
    expect:
      - target: result
        matcher: {future: 1}
`)
	r := mcptest(t, "run", "--plugin-dir", dir, suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "wrongproto@2.0.0", "protocol version mismatch", "speaks protocol [2]", "this mcptest speaks 1")

	// A manifest that lies about the protocol is caught at the handshake.
	manifest := filepath.Join(dir, "wrongproto", "mcptest-plugin.yaml")
	raw, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, []byte(strings.Replace(string(raw), "protocol_versions: [2]", "protocol_versions: [1]", 1)), 0o644)
	r = mcptest(t, "run", "--plugin-dir", dir, suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "wrongproto@2.0.0", "protocol version mismatch", "incompatible API version")
	assertNoOrphans(t)
}

// A plugin served through go-plugin's own Serve, as every plugin built
// with an SDK before pluginrpc served go-plugin's protocol itself, still
// runs under this mcptest: its verdicts arrive (one message per item, its
// older protocol minor), what it prints is forwarded by go-plugin, and it
// is stopped with the run.
func TestGoPluginServedPluginStillRuns(t *testing.T) {
	dir := install(t, "legacyserve")
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: same bytes
    server: demo
    tool: echo
    args: {message: "a"}
    expect:
      - target: result.content[0].text
        matcher: {legacy-eq: "a"}
  - name: other bytes
    server: demo
    tool: echo
    args: {message: "b"}
    expect:
      - target: result.content[0].text
        matcher: {legacy-eq: "c"}
`)
	r := mcptest(t, "run", "--plugin-dir", dir, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1 (one test fails):\n%s", r)
	}
	mustContain(t, "output", r.stdout, "same bytes", "other bytes", "legacy-eq: not the same bytes", "1 passed, 1 failed")
	assertNoOrphans(t)
}

func chaosSuite(mode string) string {
	return `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: calm before
    server: demo
    tool: echo
    args: {message: "a"}
    expect:
      - target: result.content[0].text
        matcher: {chaos: "fine"}
      - target: result.content[0].text
        matcher: {exact: "a"}
  - name: chaos strikes
    server: demo
    tool: echo
    args: {message: "b"}
    expect:
      - target: result.content[0].text
        matcher: {chaos: "` + mode + `"}
      - target: result.content[0].text
        matcher: {exact: "b"}
`
}

func TestPluginPanicErrorsOnlyThatAssertion(t *testing.T) {
	dir := install(t, "chaos")
	r := mcptest(t, "run", "--plugin-dir", dir, "--reporter", "json", writeSuite(t, chaosSuite("panic")))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "report", r.stdout, `"status": "errored"`, "chaos: panic on purpose")
	// Everything else passed, including the other assertion of the same test.
	if strings.Count(r.stdout, `"status": "passed"`) != 4 || strings.Count(r.stdout, `"status": "errored"`) != 2 {
		t.Fatalf("want 4 passed statuses (3 assertions, 1 test) and 2 errored (1 assertion, 1 test):\n%s", r.stdout)
	}
	assertNoOrphans(t)
}

func TestPluginExitMidRun(t *testing.T) {
	dir := install(t, "chaos")
	r := mcptest(t, "run", "--plugin-dir", dir, writeSuite(t, chaosSuite("exit")))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "output", r.stdout, "chaos@0.0.1", "plugin crashed", "chaos: exiting on purpose", "calm before")
	assertNoOrphans(t)
}

// What plugin code prints to stdout reaches the crash report, even when
// the plugin dies right after printing: it is written to the stderr
// mcptest reads, not forwarded over a gRPC stream that a dying process
// never flushes.
func TestPluginStdoutBeforeExitReachesTheReport(t *testing.T) {
	dir := install(t, "chaos")
	r := mcptest(t, "run", "--plugin-dir", dir, writeSuite(t, chaosSuite("print-exit")))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "output", r.stdout, "chaos@0.0.1", "plugin crashed", "chaos: printed just before exiting")
	assertNoOrphans(t)
}

func TestPluginHangHitsTheDeadline(t *testing.T) {
	dir := install(t, "chaos")
	start := time.Now()
	r := mcptest(t, "run", "--plugin-dir", dir, "--plugin-timeout", "2s", writeSuite(t, chaosSuite("hang")))
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	if time.Since(start) > time.Minute {
		t.Errorf("the hang was not cut short")
	}
	mustContain(t, "output", r.stdout, "chaos@0.0.1", "did not answer in time", "chaos: hanging on purpose")
	assertNoOrphans(t)
}

func TestInterruptLeavesNoOrphans(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: slow
    server: demo
    tool: slow
    args: {ms: 60000}
    expect:
      - target: result.content[0].text
        matcher: {exact: "done"}
`)
	cmd := exec.Command(filepath.Join(binDir, "mcptest"), "run", "--reporter", "ndjson", suite)
	cmd.Dir = root
	cmd.Env = cleanEnv()
	events, started := ndjsonEvents(t, cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started()
	// Once the test is under way and its server is up, interrupt as Ctrl-C
	// would. The server's start has no event this process can wait on (it
	// is mcptest's child, not ours), so that part is a bounded poll.
	awaitEvent(t, events, "test_started", "slow", 20*time.Second)
	waitFor(t, "the demo server to start", 20*time.Second, func() bool { return len(liveProcs()) >= 3 })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("mcptest did not stop after SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code after SIGINT = %d, want 130", code)
	}
	assertNoOrphans(t)
}

// chaosSerialSuite runs one chaos assertion per test, in order (the run is
// given -j 1), so each test's assertion travels alone.
func chaosSerialSuite(modes ...string) string {
	s := `
servers:
  demo:
    command: ["DEMO"]
tools:
`
	for i, m := range modes {
		s += fmt.Sprintf(`  - name: step %d
    server: demo
    tool: echo
    args: {message: "x"}
    expect:
      - target: result.content[0].text
        matcher: {chaos: %q}
`, i+1, m)
	}
	return s
}

// A plugin that hangs once is stopped and started again: the tests after
// the hang are judged by the new process.
func TestPluginHangIsRestartedOnce(t *testing.T) {
	dir := install(t, "chaos")
	marker := filepath.Join(t.TempDir(), "hung-once")
	suite := writeSuite(t, chaosSerialSuite("fine", "hang-first:"+marker, "fine", "fine"))
	r := mcptest(t, "run", "--plugin-dir", dir, "--plugin-timeout", "2s", "-j", "1", "--reporter", "json", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2 for the errored test:\n%s", r)
	}
	var rep report.Run
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("decode the report: %v\n%s", err, r)
	}
	want := map[string]string{"step 1": "passed", "step 2": "errored", "step 3": "passed", "step 4": "passed"}
	for _, tc := range rep.Tests {
		if string(tc.Status) != want[tc.Name] {
			t.Errorf("%s is %s, want %s", tc.Name, tc.Status, want[tc.Name])
		}
	}
	mustContain(t, "report", r.stdout, "did not answer in time", "no answer within 2s (--plugin-timeout)",
		`on test \"step 2\"`, "started again", "chaos: hanging on purpose, this once")
	assertNoOrphans(t)
}

// A plugin that hangs again after its restart is stopped for good; the
// tests that never reached it say why, naming the test it hung on.
func TestPluginHangingTwiceIsStopped(t *testing.T) {
	dir := install(t, "chaos")
	suite := writeSuite(t, chaosSerialSuite("fine", "hang", "hang", "fine"))
	r := mcptest(t, "run", "--plugin-dir", dir, "--plugin-timeout", "2s", "-j", "1", "--reporter", "json", suite)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	var rep report.Run
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("decode the report: %v\n%s", err, r)
	}
	var last string
	for _, tc := range rep.Tests {
		if tc.Name == "step 4" {
			if tc.Status != report.StatusErrored {
				t.Fatalf("step 4 is %s, want errored", tc.Status)
			}
			b, _ := json.Marshal(tc)
			last = string(b)
		}
	}
	mustContain(t, "step 4", last, `plugin chaos@0.0.1 was stopped after it hung on test \"step 3\"`, "--plugin-timeout")
	// The run errors say how the plugin ended, not only that it was restarted.
	mustContain(t, "run errors", r.stdout, `"was stopped after it hung on test \"step 3\"`)
	if strings.Contains(last, "did not answer in time") {
		t.Errorf("step 4 was never sent, yet reports a hang of its own:\n%s", last)
	}
	assertNoOrphans(t)
}
