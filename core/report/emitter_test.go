package report_test

import (
	"context"
	"fmt"
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

// lines writes one line per event type and "complete" at the end.
var lines = &sdk.Plugin{Name: "lines", Version: "1.0.0", Reporters: map[string]sdk.Reporter{
	"lines": sdk.ReporterFunc(func(_ context.Context, s *sdk.RenderSession) error {
		for ev := range s.Events() {
			fmt.Fprintln(s.Primary, ev.Type)
		}
		fmt.Fprintln(s.Primary, "complete")
		return nil
	}),
}}

// deaf never reads an event.
var deaf = &sdk.Plugin{Name: "deaf", Version: "0.0.1", Reporters: map[string]sdk.Reporter{
	"deaf": sdk.ReporterFunc(func(context.Context, *sdk.RenderSession) error { select {} }),
}}

// A reporter that stops reading cannot stall the test workers that emit
// events, nor the other reporters: Emit returns at once, the stalled
// reporter is cut off within the plugin timeout and reported, its earlier
// report file is kept, and the healthy reporter writes its report in full,
// although the run's context was cancelled (Ctrl-C) before the end.
func TestEmitterSurvivesStalledReporter(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out a 5 s reporter deadline; skipped in -short mode (make test runs it)")
	}
	l := inproc.New(lines, deaf)
	// The timeout is generous so that the healthy reporter keeps up on a
	// loaded machine; only the deaf one can miss it.
	host := plugin.NewHost(l, plugin.HostOptions{CallTimeout: 5 * time.Second})
	t.Cleanup(func() { host.Close(); l.Close() })
	dir := t.TempDir()
	good, stalled := filepath.Join(dir, "good.txt"), filepath.Join(dir, "stalled.txt")
	for _, p := range []string{good, stalled} {
		if err := os.WriteFile(p, []byte("earlier report\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	e, err := report.Open(ctx, host, []report.Output{
		{Format: "lines", Plugin: inproc.Found(lines), Path: good},
		{Format: "deaf", Plugin: inproc.Found(deaf), Path: stalled},
	}, report.Terminals{Stdout: os.Stdout, Stderr: os.Stderr}, nil)
	if err != nil {
		t.Fatal(err)
	}

	// Far more than gRPC buffers for a stream nobody reads: with a send
	// under the emitter's lock, this loop would block for good.
	pad := strings.Repeat("x", 256<<10)
	emitted := make(chan struct{})
	go func() {
		defer close(emitted)
		e.Emit(ctx, rpt.Event{Type: rpt.EventRunStarted, Total: 40})
		for i := range 40 {
			e.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &rpt.Test{Name: fmt.Sprint(i), Error: &rpt.Error{Message: pad}}})
		}
	}()
	select {
	case <-emitted:
	case <-time.After(30 * time.Second):
		t.Fatal("Emit blocked on the stalled reporter")
	}
	cancel()
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Run: &rpt.Run{}})
	errs := e.Close(ctx)

	if len(errs) != 1 || errs[0].Name != "deaf" || !strings.Contains(errs[0].Message, "plugin deaf@0.0.1") || !strings.Contains(errs[0].Message, "--plugin-timeout") {
		t.Errorf("run errors %+v, want the stalled reporter named", errs)
	}
	got, _ := os.ReadFile(good)
	want := "run_started\n" + strings.Repeat("test_finished\n", 40) + "run_finished\ncomplete\n"
	if string(got) != want {
		t.Errorf("the healthy report is incomplete:\n%s", got)
	}
	if got, _ := os.ReadFile(stalled); string(got) != "earlier report\n" {
		t.Errorf("the stalled reporter's earlier report was replaced by %q", got)
	}
	if es, _ := os.ReadDir(dir); len(es) != 2 {
		t.Errorf("temporary files left behind: %v", es)
	}
}
