package run_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/proc"
	"github.com/mcptest/mcptest/sdk/report"
)

// pidsByMessage records, for each echo message (or bump count) a test
// sent, the pid of the server process that answered it.
type pidsByMessage struct {
	mu   sync.Mutex
	pids map[string]int
	// kill names the message after whose answer the process is killed.
	kill string
}

func (p *pidsByMessage) onCall(_ *config.Suite, _ *config.Server, sess *session.Session, method string, params json.RawMessage, _ *session.Outcome, _ error) {
	if method != "tools/call" {
		return
	}
	var q struct {
		Name string `json:"name"`
		Args struct {
			Message string  `json:"message"`
			Times   float64 `json:"times"`
		} `json:"arguments"`
	}
	_ = json.Unmarshal(params, &q)
	key := q.Args.Message
	if q.Name != "echo" {
		key = fmt.Sprintf("%s %g", q.Name, q.Args.Times)
	}
	p.mu.Lock()
	if p.pids == nil {
		p.pids = map[string]int{}
	}
	p.pids[key] = sess.PID()
	p.mu.Unlock()
	if key == p.kill && key != "" {
		// The server dies after answering: the test passes, and only
		// the session's liveness can tell that its process is gone.
		if p, err := os.FindProcess(sess.PID()); err == nil {
			_ = p.Kill()
		}
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if gone, _ := sess.Exited(); gone {
				break
			}
		}
	}
}

func (p *pidsByMessage) get(t *testing.T, key string) int {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	pid, ok := p.pids[key]
	if !ok || pid == 0 {
		t.Fatalf("no server pid recorded for %q (have %v)", key, p.pids)
	}
	return pid
}

// TestAfterWriteKeepsTheProcessOnlyAcrossReads runs, one test after
// another, reads that share one process and, between them, each thing
// that must end a process's reuse: a call of a tool without readOnlyHint
// (bump), a failed test, a request that is not a read (logging/setLevel
// through log_level), a process that died after answering, and an
// answer to the server's own request (an elicitation).
func TestAfterWriteKeepsTheProcessOnlyAcrossReads(t *testing.T) {
	pl, h, _ := flowSetup(t, `
servers:
  demo:
    command: ["DEMO"]
    restart_policy: after_write
    client:
      elicitation: {action: accept, content: {ok: true}}
tools:
  - {name: read one, server: demo, tool: echo, args: {message: r1}}
  - {name: read two, server: demo, tool: echo, args: {message: r2}}
  - name: first write
    server: demo
    tool: bump
    args: {times: 2}
  - {name: read after the write, server: demo, tool: echo, args: {message: r3}}
  - name: a fresh counter
    server: demo
    tool: bump
    args: {times: 3}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "count 3"}}
  - {name: read four, server: demo, tool: echo, args: {message: r4}}
  - name: a failed test
    server: demo
    tool: echo
    args: {message: f}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "not what it says"}}
  - {name: read five, server: demo, tool: echo, args: {message: r5}}
  - {name: sets the log level, server: demo, tool: echo, args: {message: l}, log_level: debug}
  - {name: read six, server: demo, tool: echo, args: {message: r6}}
  - {name: killed after answering, server: demo, tool: echo, args: {message: k}}
  - {name: read seven, server: demo, tool: echo, args: {message: r7}}
  - name: a read-only tool that asks the client
    server: demo
    tool: confirm
    args: {action: deploy}
    expect:
      - {target: "result.content[0].text", matcher: {eq: "deploy: confirmed=true"}}
  - {name: read eight, server: demo, tool: echo, args: {message: r8}}
`, plan.Selection{})
	rec := &pidsByMessage{kill: "k"}
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 1, OnCall: rec.onCall})
	for _, tr := range res.Tests {
		want := report.StatusPassed
		if tr.Name == "a failed test" {
			want = report.StatusFailed
		}
		if tr.Status != want {
			t.Errorf("%s: %s", tr.Name, flowExplain(tr))
		}
	}
	same := func(a, b string) {
		t.Helper()
		if pa, pb := rec.get(t, a), rec.get(t, b); pa != pb {
			t.Errorf("%s (pid %d) and %s (pid %d) should share a process", a, pa, b, pb)
		}
	}
	fresh := func(before, after string) {
		t.Helper()
		if pa, pb := rec.get(t, before), rec.get(t, after); pa == pb {
			t.Errorf("%s reused the process (pid %d) left by %s", after, pb, before)
		}
	}
	same("r1", "r2")
	same("r2", "bump 2") // the write gets the kept process...
	fresh("r2", "r3")    // ...which is not kept after it
	same("r3", "bump 3") // it saw a counter of 0: a fresh process
	fresh("r3", "r4")
	same("r4", "f")
	fresh("f", "r5")
	same("r5", "l")
	fresh("l", "r6")
	same("r6", "k")
	fresh("k", "r7")
	// confirm is annotated read-only, but the elicitation it asks for
	// is client traffic that may have changed the server's state.
	same("r7", "confirm 0")
	fresh("confirm 0", "r8")
	// One record for the server, and nothing left running.
	if len(res.Servers) != 1 || res.Servers[0].ServerName != "mcptest-demo" {
		t.Errorf("servers: %+v", res.Servers)
	}
	for key, pid := range rec.pids {
		if !proc.WaitGone(pid, 5*time.Second) {
			t.Errorf("the process that answered %s (pid %d) outlived the run", key, pid)
		}
	}
}

// TestAfterWriteSharesOneProcessAmongConcurrentReads runs reads with the
// run's usual concurrency: they take the kept process in turn, so one
// process answers them all.
func TestAfterWriteSharesOneProcessAmongConcurrentReads(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"DEMO\"]\n    restart_policy: after_write\ntools:\n")
	for _, m := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		b.WriteString("  - {name: read " + m + ", server: demo, tool: echo, args: {message: " + m + "}}\n")
	}
	pl, h, log := flowSetup(t, strings.Replace(b.String(), `["DEMO"]`, `["sh", "-c", "tee -a LOG | DEMO"]`, 1), plan.Selection{})
	rec := &pidsByMessage{}
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 8, OnCall: rec.onCall})
	if res.Summary.Passed != 8 {
		t.Fatalf("summary %+v", res.Summary)
	}
	pid := rec.get(t, "a")
	for _, m := range []string{"b", "c", "d", "e", "f", "g", "h"} {
		if got := rec.get(t, m); got != pid {
			t.Errorf("read %s: pid %d, want the shared %d", m, got, pid)
		}
	}
	// One start, and the tool annotations listed once.
	if n, m := flowCalls(t, log, "initialize"), flowCalls(t, log, "tools/list"); n != 1 || m != 1 {
		t.Errorf("%d initialize and %d tools/list reached the server, want 1 and 1", n, m)
	}
}

// TestAfterWriteFixtureCopies: a kept process keeps its fixture copy; a
// process started after a write gets a fresh copy, without what the
// earlier process wrote into its own, and no copy outlives the run.
func TestAfterWriteFixtureCopies(t *testing.T) {
	dir := t.TempDir()
	fixture := filepath.Join(dir, "fixtures", "fs")
	if err := os.MkdirAll(fixture, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fixture, "seed.txt"), []byte("seed"), 0o644); err != nil {
		t.Fatal(err)
	}
	pl, h, log := flowSetupIn(t, dir, `
servers:
  files:
    command: ["sh", "-c", "echo \"start $$FIX $(ls $$FIX | tr '\\n' ' ')\" >> LOG; touch $$FIX/written; DEMO"]
    env: {FIX: "${fixture}"}
    fixture: ./fixtures/fs
    restart_policy: after_write
tools:
  - {name: read one, server: files, tool: echo, args: {message: "${fixture}/one"}}
  - {name: read two, server: files, tool: echo, args: {message: "${fixture}/two"}}
  - {name: a write, server: files, tool: bump}
  - {name: read three, server: files, tool: echo, args: {message: "${fixture}/three"}}
`, plan.Selection{})
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 1})
	if res.Summary.Passed != 4 {
		t.Fatalf("summary %+v\n%v", res.Summary, res.Tests)
	}
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var copies []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "start" {
			t.Fatalf("log line %q", line)
		}
		copies = append(copies, f[1])
		if strings.Contains(line, "written") {
			t.Errorf("a start saw what an earlier process wrote: %s", line)
		}
	}
	if len(copies) != 2 || copies[0] == copies[1] {
		t.Fatalf("starts on copies %v, want two different ones (before and after the write)", copies)
	}
	for _, cp := range copies {
		if _, err := os.Stat(cp); !os.IsNotExist(err) {
			t.Errorf("copy %s left behind: %v", cp, err)
		}
	}
	if _, err := os.Stat(filepath.Join(fixture, "written")); !os.IsNotExist(err) {
		t.Errorf("the original fixture was written to: %v", err)
	}
}

// TestAfterWriteURLServerSessions: for a url: server, after_write keeps
// the HTTP session (one Mcp-Session-Id) across reads and opens a new one
// after a write.
func TestAfterWriteURLServerSessions(t *testing.T) {
	url := startDemoURL(t, "--http")
	pl, h, _ := flowSetup(t, `
servers:
  kept: {url: "`+url+`", restart_policy: after_write}
tools:
  - {name: read one, server: kept, tool: echo, args: {message: one}}
  - {name: read two, server: kept, tool: echo, args: {message: two}}
  - {name: a write, server: kept, tool: bump}
  - {name: read three, server: kept, tool: echo, args: {message: three}}
`, plan.Selection{})
	var mu sync.Mutex
	var ids []string
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 1,
		OnCall: func(_ *config.Suite, _ *config.Server, sess *session.Session, method string, _ json.RawMessage, _ *session.Outcome, _ error) {
			if method == "tools/call" {
				mu.Lock()
				ids = append(ids, sess.SessionID())
				mu.Unlock()
			}
		}})
	if res.Summary.Passed != 4 {
		t.Fatalf("summary %+v: %+v", res.Summary, res.Tests)
	}
	if len(ids) != 4 || ids[0] == "" || ids[0] != ids[1] || ids[1] != ids[2] || ids[3] == ids[2] || ids[3] == "" {
		t.Errorf("session ids %q: want reads one and two and the write on one session, read three on a new one", ids)
	}
}

// TestAfterWriteWriterHasTheProcessAlone runs reads and a write
// concurrently: reads may share a process, but the write has its
// process alone (every read it answered was done before the write
// began) and no read reaches that process after it.
func TestAfterWriteWriterHasTheProcessAlone(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"DEMO\"]\n    restart_policy: after_write\ntools:\n")
	for i := range 12 {
		if i == 6 {
			b.WriteString("  - {name: the write, server: demo, tool: bump}\n")
		}
		fmt.Fprintf(&b, "  - {name: read %d, server: demo, tool: echo, args: {message: m%d}}\n", i, i)
	}
	pl, h, _ := flowSetup(t, b.String(), plan.Selection{})
	type call struct {
		pid        int
		tool       string
		start, end time.Time
	}
	var mu sync.Mutex
	var calls []call
	res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 8,
		OnCall: func(_ *config.Suite, _ *config.Server, sess *session.Session, method string, params json.RawMessage, out *session.Outcome, _ error) {
			if method != "tools/call" || out == nil {
				return
			}
			var q struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(params, &q)
			end := time.Now()
			mu.Lock()
			calls = append(calls, call{pid: sess.PID(), tool: q.Name, start: end.Add(-out.Duration), end: end})
			mu.Unlock()
		}})
	if res.Summary.Passed != 13 {
		t.Fatalf("summary %+v", res.Summary)
	}
	var write *call
	for i := range calls {
		if calls[i].tool == "bump" {
			write = &calls[i]
		}
	}
	if write == nil {
		t.Fatalf("no bump call among %d", len(calls))
	}
	for _, c := range calls {
		if c.tool == "echo" && c.pid == write.pid && !c.end.Before(write.start) {
			t.Errorf("a read on the write's process (pid %d) ended at %v, after the write began at %v", c.pid, c.end, write.start)
		}
	}
}
