package run_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

// interruptingSink records events and cancels the run when a named test
// starts, as Ctrl-C would while it is under way.
type interruptingSink struct {
	at     string
	cancel context.CancelFunc
	mu     sync.Mutex
	events []report.Event
}

func (s *interruptingSink) Emit(_ context.Context, ev report.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, ev)
	if ev.Type == report.EventTestStarted && ev.Test.Name == s.at {
		s.cancel()
	}
}

// An interrupted run keeps the verdicts reached, skips the test it cut
// short and those not begun (each saying which), and still announces
// every test of the plan to the reporters.
func TestInterruptSkipsTheTestsItReached(t *testing.T) {
	p, h := setup(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: first
    server: demo
    tool: echo
    args: {message: "a"}
    expect:
      - target: result.content[0].text
        matcher: {eq: "a"}
  - name: slow
    server: demo
    tool: slow
    args: {ms: 60000}
  - name: later 1
    server: demo
    tool: echo
    args: {message: "b"}
  - name: later 2
    server: demo
    tool: echo
    args: {message: "c"}
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sink := &interruptingSink{at: "slow", cancel: cancel}
	res := run.Execute(ctx, p, run.Options{Host: h, Events: sink, Concurrency: 1})

	want := map[string]string{
		"first":   "passed",
		"slow":    "skipped interrupted run interrupted while the test ran",
		"later 1": "skipped interrupted run interrupted before the test started",
		"later 2": "skipped interrupted run interrupted before the test started",
	}
	for _, tc := range res.Tests {
		got := string(tc.Status)
		if tc.Error != nil {
			got += " " + tc.Error.Kind + " " + tc.Error.Message
		}
		if !strings.HasPrefix(got, want[tc.Name]) {
			t.Errorf("%s: %q, want %q", tc.Name, got, want[tc.Name])
		}
	}
	finished := map[string]bool{}
	for _, ev := range sink.events {
		if ev.Type == report.EventTestFinished {
			finished[ev.Test.Name] = true
		}
	}
	if len(finished) != 4 {
		t.Errorf("test_finished announced for %v, want all four tests", finished)
	}
}
