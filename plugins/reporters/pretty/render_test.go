package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
)

// syntheticRun is a run with one test of every status. Text from the
// "server" and the "plugins" carries escape sequences that must never reach
// the terminal.
func syntheticRun() (*report.Run, []report.Test) {
	score := 0.25
	var stderr strings.Builder
	for i := 1; i <= 15; i++ {
		fmt.Fprintf(&stderr, "log line %d\n", i)
	}
	stderr.WriteString("\x1b[2Jscreen wiped\x1b]0;pwned title\x07\r\n")
	tests := []report.Test{
		{ID: "t1", Name: "echoes the input", File: "suite.yml", Block: "tools", Status: report.StatusPassed, DurationMS: 12.4,
			Assertions: []report.Assertion{{Index: 0, Target: "result", Matcher: "exact", Status: report.StatusPassed}}},
		{ID: "t2", Name: "reads a fixture", File: "suite.yml", Block: "tools", Status: report.StatusFailed, DurationMS: 3.25,
			Stderr: "warning: cache cold\n",
			Assertions: []report.Assertion{
				{Index: 0, Target: "result.isError", Matcher: "exact", Status: report.StatusPassed},
				{Index: 1, Target: "result", Matcher: "contains", Message: "must report success", Status: report.StatusFailed,
					Failure: json.RawMessage(`{"path":"/isError","expected":false,"note":"key \"isError\" is missing from the actual object"}`)},
				{Index: 2, Target: "result.content[0].text", Matcher: "regex", Status: report.StatusFailed,
					Failure: json.RawMessage(`{"expected":"^ping","actual":"pong \u001b[2J <b>","match":null}`)},
				{Index: 3, Target: "result.user", Matcher: "exact", Status: report.StatusFailed, Score: &score,
					Failure: json.RawMessage(`{"expected":{"name":"Anne"},"actual":{"name":"Ann","bio":"` + strings.Repeat("x", 300) + `"},` +
						`"diff":"--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n {\n-  \"name\": \"Anne\"\n+  \"name\": \"Ann\"\n }"}`)},
			}},
		{ID: "t3", Name: "survives a crash", File: "suite.yml", Block: "tools", Status: report.StatusErrored, DurationMS: 1500,
			Error:  &report.Error{Kind: "server_exited", Message: "server exited with status 2\x1b[31m"},
			Stderr: stderr.String(),
			Assertions: []report.Assertion{{Index: 0, Target: "result", Matcher: "cel", Status: report.StatusErrored,
				Error: "plugin crashed \x1b]0;owned\x07", Plugin: "cel@0.1.0"}}},
		{ID: "t4", Name: "needs the network", File: "suite.yml", Block: "tools", Status: report.StatusSkipped,
			Error: &report.Error{Kind: "skipped", Message: "excluded by tag filter"}},
		// t5 is only in the final report, as when a stored report is re-rendered.
		{ID: "t5", Name: "late test", File: "suite.yml", Block: "tools", Status: report.StatusPassed, DurationMS: 0.5},
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run := &report.Run{
		SchemaVersion: report.SchemaVersion, RunID: "run-1", Tool: report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt: start, FinishedAt: start.Add(1234 * time.Millisecond), DurationMS: 1234,
		Suites: []string{"suite.yml"}, Tests: tests,
		Errors: []report.RunError{{Source: "plugin", Name: "acme", Message: "plugin crashed\x1b[2J",
			StderrTail: "panic: boom\n\x1b[2Jgoroutine 1 [running]\n"}},
		ExitCode: 2,
	}
	run.Summarize()
	run.Summary.DurationMS = 1234
	return run, tests
}

// renderRun streams the synthetic run's events to the plugin over gRPC and
// returns what it wrote to the primary sink.
func renderRun(t *testing.T, color bool) string {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	var (
		mu      sync.Mutex
		primary bytes.Buffer
	)
	start := plugintest.RenderStart{Key: "pretty", Options: json.RawMessage(`{}`), Terminal: sdk.Terminal{IsTTY: color, Color: color, Width: 100}}
	stream, err := c.Reporter.Render(context.Background(), start, func(sink plugintest.Sink, data []byte) {
		mu.Lock()
		defer mu.Unlock()
		if sink == plugintest.SinkPrimary {
			primary.Write(data)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	run, tests := syntheticRun()
	send := func(ev report.Event) {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.Send(b); err != nil {
			t.Fatal(err)
		}
	}
	header := *run
	header.Tests, header.Errors = nil, nil
	send(report.Event{Type: report.EventRunStarted, Run: &header, Total: len(tests)})
	for i := range tests[:4] {
		send(report.Event{Type: report.EventTestStarted, Test: &report.Test{ID: tests[i].ID, Name: tests[i].Name}})
		send(report.Event{Type: report.EventTestFinished, Test: &tests[i]})
	}
	send(report.Event{Type: report.EventRunFinished, Run: run})
	if err := stream.Close(); err != nil {
		t.Fatalf("render: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	return primary.String()
}

const wantPlain = `✓ PASS  echoes the input (12 ms)
✗ FAIL  reads a fixture (3.2 ms)
    ✗ result › contains — must report success
        expected: false
        path:     /isError
        note:     key "isError" is missing from the actual object
    ✗ result.content[0].text › regex
        expected: "^ping"
        actual:   "pong \u001b[2J <b>"
        match:    null
    ✗ result.user › exact
        score:    0.25
        expected: {"name":"Anne"}
        actual:   {{BIO}}
        diff:
          --- expected
          +++ actual
          @@ -1,3 +1,3 @@
           {
          -  "name": "Anne"
          +  "name": "Ann"
           }
    stderr:
      │ warning: cache cold
! ERROR survives a crash (1500 ms)
    ! result › cel
        error: plugin crashed  [plugin cel@0.1.0]
    error: server_exited: server exited with status 2
    stderr (last 10 lines):
      │ log line 7
      │ log line 8
      │ log line 9
      │ log line 10
      │ log line 11
      │ log line 12
      │ log line 13
      │ log line 14
      │ log line 15
      │ screen wiped
- SKIP  needs the network
    reason: skipped: excluded by tag filter
✓ PASS  late test (0.50 ms)

run errors:
  ! plugin acme: plugin crashed
    stderr:
      │ panic: boom
      │ goroutine 1 [running]

2 passed, 1 failed, 1 errored, 1 skipped (5 tests) in 1.23s
`

// expectedPlain is the plain rendering of the synthetic run.
func expectedPlain() string {
	bio := `{"bio":"` + strings.Repeat("x", maxValueRunes-len(`{"bio":"`)) + "… (+123 chars)"
	return strings.Replace(wantPlain, "{{BIO}}", bio, 1)
}

func TestRenderPlain(t *testing.T) {
	got := renderRun(t, false)
	if strings.ContainsRune(got, 0x1b) {
		t.Errorf("colour off, yet the output has an escape character:\n%q", got)
	}
	if want := expectedPlain(); got != want {
		t.Errorf("output differs.\n--- got\n%s\n--- want\n%s", got, want)
	}
}

func TestRenderColor(t *testing.T) {
	got := renderRun(t, true)
	for _, bad := range []string{"\x1b[2J", "\x1b]0;", "\x1b[31m" + "\n", "\r", "\x07"} {
		if strings.Contains(got, bad) {
			t.Errorf("output contains %q, which must have been stripped", bad)
		}
	}
	for _, want := range []string{
		green.wrap("✓ PASS "),
		red.wrap("✗ FAIL "),
		yellow.wrap("! ERROR"),
		dim.wrap("- SKIP "),
		red.wrap(`-  "name": "Anne"`),
		green.wrap(`+  "name": "Ann"`),
		green.wrap("2 passed") + ", " + red.wrap("1 failed"),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// Stripping our own SGR codes gives back the plain rendering.
	if plain := stripSGR(got); plain != expectedPlain() {
		t.Errorf("colour output without SGR differs from plain output:\n%s", plain)
	}
}

func (s style) wrap(text string) string { return string(s) + text + reset }

// stripSGR removes the reporter's own colour codes.
func stripSGR(s string) string {
	for _, st := range []string{string(green), string(red), string(yellow), string(dim), string(bold), reset} {
		s = strings.ReplaceAll(s, st, "")
	}
	return s
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), "pretty")
}
