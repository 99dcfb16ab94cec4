package report_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/report"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// gatedLauncher holds every launch until release is closed, then starts
// the plugin in-process, or fails with err when it is set.
type gatedLauncher struct {
	inner   *inproc.Launcher
	release chan struct{}
	err     error
}

func (g *gatedLauncher) Launch(ctx context.Context, f *plugin.Found) (plugin.Instance, error) {
	<-g.release
	if g.err != nil {
		return nil, g.err
	}
	return g.inner.Launch(ctx, f)
}

// Open must not wait for reporter plugins to start (their launch would
// otherwise delay the servers' start): it returns while the launch is
// held, the events emitted meanwhile wait in the queue, and the report
// holds all of them, in order, once the plugin is up.
func TestOpenDoesNotWaitForReporterStart(t *testing.T) {
	l := &gatedLauncher{inner: inproc.New(lines), release: make(chan struct{})}
	host := plugin.NewHost(l, plugin.HostOptions{CallTimeout: 30 * time.Second})
	t.Cleanup(func() { host.Close(); l.inner.Close() })
	out := filepath.Join(t.TempDir(), "report.txt")
	ctx := context.Background()

	opened := make(chan *report.Emitter, 1)
	go func() {
		e, err := report.Open(ctx, host, []report.Output{{Format: "lines", Plugin: inproc.Found(lines), Path: out}},
			report.Terminals{Stdout: os.Stdout, Stderr: os.Stderr}, nil)
		if err != nil {
			t.Error(err)
		}
		opened <- e
	}()
	var e *report.Emitter
	select {
	case e = <-opened:
	case <-time.After(30 * time.Second):
		close(l.release)
		t.Fatal("Open waited for the reporter plugin to start")
	}
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunStarted, Total: 2})
	e.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &rpt.Test{Name: "a"}})
	close(l.release)
	e.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &rpt.Test{Name: "b"}})
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Run: &rpt.Run{}})
	if errs := e.Close(ctx); len(errs) != 0 {
		t.Fatalf("run errors: %+v", errs)
	}
	got, _ := os.ReadFile(out)
	if want := "run_started\ntest_finished\ntest_finished\nrun_finished\ncomplete\n"; string(got) != want {
		t.Fatalf("report = %q, want %q", got, want)
	}
}

// A reporter plugin that cannot start is a reporter failure: it is named
// among the run errors and in StartErrors (the caller prints those, since
// that reporter wrote nothing), and the earlier report at its path is
// kept.
func TestReporterThatCannotStartIsNamed(t *testing.T) {
	release := make(chan struct{})
	close(release)
	l := &gatedLauncher{inner: inproc.New(lines), release: release, err: errors.New("exec format error")}
	host := plugin.NewHost(l, plugin.HostOptions{CallTimeout: 30 * time.Second})
	t.Cleanup(func() { host.Close(); l.inner.Close() })
	out := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(out, []byte("earlier report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e, err := report.Open(ctx, host, []report.Output{{Format: "lines", Plugin: inproc.Found(lines), Path: out}},
		report.Terminals{Stdout: os.Stdout, Stderr: os.Stderr}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunStarted, Total: 0})
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Run: &rpt.Run{}})
	errs := e.Close(ctx)
	if len(errs) != 1 || errs[0].Name != "lines" || !strings.Contains(errs[0].Message, "failed to start") || !strings.Contains(errs[0].Message, "exec format error") {
		t.Fatalf("run errors %+v, want the reporter that did not start", errs)
	}
	if se := e.StartErrors(); len(se) != 1 || se[0].Message != errs[0].Message {
		t.Fatalf("StartErrors = %+v", se)
	}
	if got, _ := os.ReadFile(out); string(got) != "earlier report\n" {
		t.Fatalf("the earlier report was replaced by %q", got)
	}
}

// A destination that cannot be opened (here a folder) is still refused by
// Open itself, before the run starts anything.
func TestOpenRefusesABadDestination(t *testing.T) {
	l := inproc.New(lines)
	host := plugin.NewHost(l, plugin.HostOptions{})
	t.Cleanup(func() { host.Close(); l.Close() })
	out := t.TempDir()
	_, err := report.Open(context.Background(), host, []report.Output{{Format: "lines", Plugin: inproc.Found(lines), Path: out}},
		report.Terminals{Stdout: os.Stdout, Stderr: os.Stderr}, nil)
	if err == nil || !strings.Contains(err.Error(), `reporter "lines"`) || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("err = %v, want the reporter's destination refused", err)
	}
	if l.Starts("lines") != 0 {
		t.Fatal("the reporter plugin was started for a report that cannot be written")
	}
}
