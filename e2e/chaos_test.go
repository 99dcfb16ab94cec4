package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corereport "github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk/report"
)

// chaosCase is one misbehaviour of examples/servers/chaos and what mcptest
// must make of it.
type chaosCase struct {
	name  string
	flags []string // the chaos server's command-line switches
	// head is YAML put before the suite's servers (a performance block).
	head string
	// test is the YAML of the chaos test after its name and server.
	test   string
	status report.Status
	kind   string   // the test's Error.Kind; "" when none is expected
	wants  []string // in the test's error message, stderr or failures
	exit   int
	// minMS and maxMS bound the chaos test's duration (0: unchecked).
	minMS, maxMS float64
}

// chaosCases are the misbehaviours, each run in a suite of its own beside a
// healthy test on the demo server.
var chaosCases = []chaosCase{{
	name:   "crash mid-call",
	flags:  []string{"-ansi-stderr"},
	test:   "tool: crash\n    args: {code: 7}",
	status: report.StatusErrored, kind: "server_exited", exit: 2, maxMS: 5000,
	wants: []string{`server "chaos" exited (exit status 7)`, "chaos: crash requested mid-call"},
}, {
	name:   "hang",
	test:   "tool: hang\n    timeout_ms: 1000",
	status: report.StatusErrored, kind: "timeout", exit: 2, minMS: 1000, maxMS: 5000,
	wants: []string{`tools/call "hang": timed out: no response after `},
}, {
	// The server ignores SIGTERM and the end of its stdin, and has a
	// child: only SIGKILL to its process group ends them both.
	name:   "hang, ignoring SIGTERM, with a child",
	flags:  []string{"-stubborn", "-child"},
	test:   "tool: hang\n    timeout_ms: 1000",
	status: report.StatusErrored, kind: "timeout", exit: 2, minMS: 1000, maxMS: 5000,
	wants: []string{"timed out", "chaos: child pid"},
}, {
	// A passing test on a server that ignores the end of its stdin and
	// SIGTERM, with a child: the servers stop while the reports are
	// written (off the critical path), and mcptest still waits for the
	// escalation to SIGKILL before it exits, so neither survives.
	name:   "passing test on a server ignoring stdin's end and SIGTERM, with a child",
	flags:  []string{"-stubborn", "-child"},
	test:   "tool: echo\n    args: {message: x}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: x}",
	status: report.StatusPassed, exit: 0,
}, {
	// The server's child leaves the process group with setsid and ignores
	// SIGTERM: killing the group misses it, the subreaper does not (the
	// run checks that no process survives).
	name:   "grandchild escaped with setsid, ignoring SIGTERM",
	flags:  []string{"-setsid-child"},
	test:   "tool: echo\n    args: {message: x}",
	status: report.StatusPassed, exit: 0,
}, {
	// The suite's limit bounds the start, and the error says so.
	name:   "start slower than the suite's limit",
	flags:  []string{"-start-delay", "10s"},
	head:   "performance:\n  default_timeout_ms: 700\n",
	test:   "tool: echo\n    args: {message: x}",
	status: report.StatusErrored, kind: "server_start", exit: 2, maxMS: 5000,
	wants: []string{"timed out", "(start limit 700ms, from performance.default_timeout_ms in "},
}, {
	name:   "exit during initialize",
	flags:  []string{"-init-exit", "4"},
	test:   "tool: echo\n    args: {message: x}",
	status: report.StatusErrored, kind: "server_start", exit: 2, maxMS: 5000,
	wants: []string{`initialize server "chaos"`, "exited (exit status 4)", "chaos: exiting during initialize"},
}, {
	name:   "slow start",
	flags:  []string{"-start-delay", "2s"},
	test:   "tool: echo\n    args: {message: late}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: late}",
	status: report.StatusPassed, exit: 0, minMS: 1900,
}, {
	name:   "garbage on stdout around the answer",
	flags:  []string{"-banner"},
	test:   "tool: garbage\n    args: {answer: true}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: answered}",
	status: report.StatusPassed, exit: 0,
}, {
	name:   "garbage instead of the answer",
	test:   "tool: garbage\n    timeout_ms: 1000",
	status: report.StatusErrored, kind: "timeout", exit: 2, minMS: 1000, maxMS: 5000,
	wants: []string{"timed out", "non-JSON output on stdout", `garbage: this line is not JSON {\x1b[7m`},
}, {
	name:   "wrong id",
	test:   "tool: wrong_id\n    timeout_ms: 1000",
	status: report.StatusErrored, kind: "timeout", exit: 2, minMS: 1000, maxMS: 5000,
	wants: []string{"timed out", "stray answers", `"id":"1000001"`},
}, {
	// An id inside the client's own range that no request waits for (1
	// was the initialize request's) is a stray answer as well.
	name:   "answer to an id already answered",
	test:   "tool: wrong_id\n    args: {id: 1}\n    timeout_ms: 1000",
	status: report.StatusErrored, kind: "timeout", exit: 2, minMS: 1000, maxMS: 5000,
	wants: []string{"timed out", "stray answers", `{"id":1,"jsonrpc":"2.0"`},
}, {
	name:   "duplicate answers",
	test:   "tool: duplicate\n    args: {first: one, second: two}\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: one}",
	status: report.StatusPassed, exit: 0,
}, {
	name:   "50 MB response judged by content",
	test:   "tool: big\n    expect:\n      - target: result.content[0].text\n        matcher: {starts-with: BEGINxxx}\n      - target: result.content[0].text\n        matcher: {contains: xxxEND}",
	status: report.StatusPassed, exit: 0,
}, {
	name:   "50 MB response failing",
	test:   "tool: big\n    expect:\n      - target: result.content[0].text\n        matcher: {contains: nope}",
	status: report.StatusFailed, exit: 1,
	wants: []string{`"nope" is not a substring`, "BEGINxxx", "[truncated: 52428800 bytes in total]"},
}, {
	name:   "100,000 levels of nesting",
	test:   "tool: deep\n    timeout_ms: 20000",
	status: report.StatusErrored, kind: "bad_response", exit: 2, maxMS: 5000,
	wants: []string{"malformed response", "cannot be decoded", "exceeded max depth"},
}, {
	// Valid JSON, but too deep to embed in a report as JSON.
	name:   "9,990 levels of nesting",
	test:   "tool: deep\n    args: {depth: 9990}\n    expect:\n      - target: result.structuredContent.nested\n        matcher: {exact: []}",
	status: report.StatusFailed, exit: 1,
	wants: []string{"actual: [[[[", "not diffed"},
}, {
	name:   "ANSI escapes in text and stderr",
	flags:  []string{"-ansi-stderr"},
	test:   "tool: ansi\n    expect:\n      - target: result.content[0].text\n        matcher: {exact: red alert}",
	status: report.StatusFailed, exit: 1,
	wants: []string{"actual: \x1b[31mred alert", "\x1b[31mchaos: red alert"},
}}

// chaosServerSuite is the suite of one case: the chaos test, then a healthy one.
const chaosServerSuite = `
servers:
  chaos:
    command: CHAOS
  demo:
    command: ["DEMO"]
tools:
  - name: chaos
    server: chaos
    %s
  - name: healthy
    server: demo
    tool: echo
    args: {message: still fine}
    expect:
      - target: result.content[0].text
        matcher: {exact: still fine}
`

// TestChaos runs each misbehaviour through the real binaries: only the
// chaos test suffers, with the right reason, in bounded time, and no
// process survives the run.
func TestChaos(t *testing.T) {
	for _, c := range chaosCases {
		t.Run(c.name, func(t *testing.T) {
			cmd, _ := json.Marshal(append([]string{chaosServer}, c.flags...))
			suite := writeSuite(t, c.head+strings.Replace(fmt.Sprintf(chaosServerSuite, c.test), "CHAOS", string(cmd), 1))
			out := filepath.Join(t.TempDir(), "run.json")
			start := time.Now()
			r := mcptest(t, "run", "--reporter", "pretty", "--reporter", "json="+out, suite)
			elapsed := time.Since(start)
			assertNoOrphans(t)
			checkChaosRun(t, c, r, out, elapsed)
		})
	}
}

// checkChaosRun checks one case's run.
func checkChaosRun(t *testing.T, c chaosCase, r result, out string, elapsed time.Duration) {
	t.Helper()
	if r.code != c.exit {
		t.Errorf("exit %d, want %d", r.code, c.exit)
	}
	if elapsed > 30*time.Second {
		t.Errorf("the run took %v", elapsed)
	}
	if strings.ContainsRune(r.stdout, 0x1b) || strings.ContainsRune(r.stderr, 0x1b) {
		t.Errorf("raw ESC in mcptest's output:\n%q", r.stdout)
	}
	if info, err := os.Stat(out); err == nil && info.Size() > 4<<20 {
		t.Errorf("the JSON report is %d bytes", info.Size())
	}
	run, err := corereport.ReadRun(out)
	if err != nil {
		t.Fatalf("read the report: %v\n%s", err, r)
	}
	tests := map[string]report.Test{}
	for _, tr := range run.Tests {
		tests[tr.Name] = tr
	}
	if h := tests["healthy"]; h.Status != report.StatusPassed {
		t.Errorf("the healthy test is %s: %+v", h.Status, h.Error)
	}
	ct := tests["chaos"]
	if ct.Status != c.status {
		t.Fatalf("the chaos test is %s, want %s: %+v\n%s", ct.Status, c.status, ct.Error, r)
	}
	var said strings.Builder
	if ct.Error != nil {
		said.WriteString(ct.Error.Message + "\n")
		if ct.Error.Kind != c.kind {
			t.Errorf("error kind %q, want %q", ct.Error.Kind, c.kind)
		}
	} else if c.kind != "" {
		t.Errorf("no error, want kind %q", c.kind)
	}
	said.WriteString(ct.Stderr + "\n")
	for _, a := range ct.Assertions {
		var fields map[string]any
		_ = json.Unmarshal(a.Failure, &fields)
		for k, v := range fields {
			s, ok := v.(string)
			if !ok {
				b, _ := json.Marshal(v)
				s = string(b)
			}
			said.WriteString(k + ": " + s + "\n")
		}
	}
	for _, w := range c.wants {
		if !strings.Contains(said.String(), w) {
			t.Errorf("the report of the chaos test lacks %q:\n%.2000s", w, said.String())
		}
	}
	if c.minMS > 0 && ct.DurationMS < c.minMS || c.maxMS > 0 && ct.DurationMS > c.maxMS {
		t.Errorf("the chaos test took %.0f ms, want %.0f to %.0f", ct.DurationMS, c.minMS, c.maxMS)
	}
	mustContain(t, "pretty output", r.stdout, "chaos", "healthy")
}

// TestChaosKilledRunLeavesNoOrphans kills mcptest outright (as a crash or
// the OOM killer would) while a server and the server's own child run: no
// Close happens, yet neither may survive.
func TestChaosKilledRunLeavesNoOrphans(t *testing.T) {
	cmd, _ := json.Marshal([]string{chaosServer, "-child"})
	// In order (-j 1): the demo server answers, the chaos server answers
	// (its session has finished starting, as a real crash would find it),
	// then the chaos server is left hanging on a call.
	suite := writeSuite(t, strings.Replace(`
servers:
  chaos:
    command: CHAOS
  demo:
    command: ["DEMO"]
tools:
  - name: healthy
    server: demo
    tool: echo
    args: {message: still fine}
  - name: chaos answers
    server: chaos
    tool: echo
    args: {message: up}
  - name: chaos hangs
    server: chaos
    tool: hang
    timeout_ms: 60000
`, "CHAOS", string(cmd), 1))
	run := exec.Command(filepath.Join(binDir, "mcptest"), "run", "-j", "1", "--reporter", "ndjson", suite)
	run.Dir = root
	run.Env = cleanEnv()
	events, started := ndjsonEvents(t, run)
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	started()
	awaitEvent(t, events, "test_finished", "chaos answers", 20*time.Second)
	awaitEvent(t, events, "test_started", "chaos hangs", 20*time.Second)
	chaosProcs := func() int {
		n := 0
		for _, p := range liveProcs() {
			if strings.HasSuffix(p, " "+chaosServer) {
				n++
			}
		}
		return n
	}
	// The server started its child before it answered; both must be
	// there now (read from /proc: they are mcptest's, so this process has
	// no event for them).
	if n := chaosProcs(); n < 2 {
		_ = run.Process.Kill()
		_ = run.Wait()
		t.Fatalf("%d chaos processes running, want the server and its child", n)
	}
	if err := run.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = run.Wait()
	assertNoOrphans(t)
}
