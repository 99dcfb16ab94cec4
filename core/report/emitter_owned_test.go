package report_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// finalOnly reads the final report alone (sdk.FinalReporter declares it).
var finalOnly = &sdk.Plugin{Name: "final", Version: "1.0.0", Reporters: map[string]sdk.Reporter{
	"final": sdk.FinalReporter(func(_ context.Context, s *sdk.RenderSession, run *rpt.Run) error {
		_, err := fmt.Fprintf(s.Primary, "final %d tests\n", len(run.Tests))
		return err
	}),
}}

// unencodable is a run_started header encoding/json refuses (NaN): what
// becomes of it shows whether the emitter encoded it.
func unencodable() rpt.Event {
	return rpt.Event{Type: rpt.EventRunStarted, Total: 1, Run: &rpt.Run{DurationMS: math.NaN()}}
}

// openHeld opens one report of plugin p whose start is held until the
// returned release is called.
func openHeld(t *testing.T, p *sdk.Plugin, format string) (*report.Emitter, string, func()) {
	t.Helper()
	l := &gatedLauncher{inner: inproc.New(p), release: make(chan struct{})}
	host := plugin.NewHost(l, plugin.HostOptions{CallTimeout: 30 * time.Second})
	t.Cleanup(func() { host.Close(); l.inner.Close() })
	out := filepath.Join(t.TempDir(), "report.txt")
	e, err := report.Open(context.Background(), host, []report.Output{{Format: format, Plugin: inproc.Found(p), Path: out}},
		report.Terminals{Stdout: os.Stdout, Stderr: os.Stderr}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return e, out, func() { close(l.release) }
}

// An owned event emitted while the reporters are starting is not encoded
// when they all turn out to read only the final report; Emit, which
// encodes at once, would have failed on it.
func TestOwnedEventsAreNotEncodedForFinalOnlyReporters(t *testing.T) {
	ctx := context.Background()
	e, out, release := openHeld(t, finalOnly, "final")
	e.EmitOwned(ctx, unencodable())
	e.EmitOwned(ctx, rpt.Event{Type: rpt.EventTestStarted, Test: &rpt.Test{Name: "a"}})
	release()
	waitSettled(t, e)
	e.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &rpt.Test{Name: "a"}})
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Run: &rpt.Run{Tests: []rpt.Test{{Name: "a"}}}})
	if errs := e.Close(ctx); len(errs) != 0 {
		t.Fatalf("run errors: %+v (an owned event was encoded for a final-only reporter)", errs)
	}
	if got, _ := os.ReadFile(out); string(got) != "final 1 tests\n" {
		t.Fatalf("report = %q", got)
	}

	// The same event through Emit is encoded at once, and fails.
	e, _, release = openHeld(t, finalOnly, "final")
	e.Emit(ctx, unencodable())
	release()
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Run: &rpt.Run{}})
	if errs := e.Close(ctx); len(errs) != 1 || !strings.Contains(errs[0].Message, "encode run_started") {
		t.Fatalf("run errors through Emit: %+v, want the encoding failure", errs)
	}
}

// For a reporter that reads live events, owned events held while it was
// starting reach it first and in order, whether the next event comes
// before its start (Emit encodes them then) or after (its start does).
func TestOwnedEventsReachLiveReportersInOrder(t *testing.T) {
	ctx := context.Background()
	want := "run_started\ntest_started\ntest_finished\nrun_finished\ncomplete\n"
	for _, before := range []bool{true, false} {
		e, out, release := openHeld(t, lines, "lines")
		e.EmitOwned(ctx, rpt.Event{Type: rpt.EventRunStarted, Total: 1, Run: &rpt.Run{}})
		e.EmitOwned(ctx, rpt.Event{Type: rpt.EventTestStarted, Test: &rpt.Test{Name: "a"}})
		if before {
			e.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &rpt.Test{Name: "a"}})
			release()
		} else {
			release()
			waitSettled(t, e)
			e.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &rpt.Test{Name: "a"}})
		}
		e.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Run: &rpt.Run{}})
		if errs := e.Close(ctx); len(errs) != 0 {
			t.Fatalf("run errors: %+v", errs)
		}
		if got, _ := os.ReadFile(out); string(got) != want {
			t.Errorf("next event before the start %v: report = %q, want %q", before, got, want)
		}
	}
}

// A run closed without its final report still hands a live reporter the
// owned events it was holding.
func TestOwnedEventsSurviveCloseWithoutFinal(t *testing.T) {
	ctx := context.Background()
	e, out, release := openHeld(t, lines, "lines")
	e.EmitOwned(ctx, rpt.Event{Type: rpt.EventRunStarted, Total: 0, Run: &rpt.Run{}})
	release()
	if errs := e.Close(ctx); len(errs) != 0 {
		t.Fatalf("run errors: %+v", errs)
	}
	if got, _ := os.ReadFile(out); !strings.HasPrefix(string(got), "run_started\n") {
		t.Fatalf("report = %q, want run_started first", got)
	}
}

// waitSettled waits until e's reporters have described themselves.
func waitSettled(t *testing.T, e *report.Emitter) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !e.Settled(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the reporter never described itself")
		}
	}
}
