package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// dyingInstance is an in-process plugin standing in for a process that
// dies: the test says when it has exited and what its stderr held by then.
type dyingInstance struct {
	conn *plugintest.Conn

	mu    sync.Mutex
	dying bool
	tail  string
	// exited is closed by the test; asked is closed when the host first
	// waits for the exit.
	exited, asked chan struct{}
	askOnce       sync.Once
}

func (d *dyingInstance) Dispense(kind string) (any, error) { return d.conn.Dispense(kind) }
func (d *dyingInstance) Kill()                             { d.conn.Close() }

func (d *dyingInstance) Exited() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dying
}

func (d *dyingInstance) StderrTail(int) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tail
}

func (d *dyingInstance) Done() <-chan struct{} {
	d.askOnce.Do(func() { close(d.asked) })
	return d.exited
}

// dyingLauncher serves p once, as a dyingInstance.
type dyingLauncher struct {
	p    *sdk.Plugin
	inst chan *dyingInstance
}

func (l *dyingLauncher) Launch(context.Context, *plugin.Found) (plugin.Instance, error) {
	conn, err := plugintest.Dial(l.p)
	if err != nil {
		return nil, err
	}
	d := &dyingInstance{conn: conn, exited: make(chan struct{}), asked: make(chan struct{})}
	l.inst <- d
	return d, nil
}

// blocking signals each item on entered and answers when its call ends.
type blocking struct{ entered chan struct{} }

func (b blocking) Match(ctx context.Context, _ sdk.MatchInput) (sdk.MatchResult, error) {
	b.entered <- struct{}{}
	<-ctx.Done()
	return sdk.MatchResult{}, ctx.Err()
}

// within fails the test unless ch yields within a generous bound.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

// TestCrashReportWaitsForTheExitAndItsStderr: a plugin whose call failed
// because its process is going is reported only once the process has
// exited, with the stderr it left; the host waits for that event rather
// than for a fixed time, so a slow exit still yields the last words.
func TestCrashReportWaitsForTheExitAndItsStderr(t *testing.T) {
	b := blocking{entered: make(chan struct{}, 1)}
	p := &sdk.Plugin{Name: "dies", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"dies": b}}
	l := &dyingLauncher{p: p, inst: make(chan *dyingInstance, 1)}
	h := plugin.NewHost(l, plugin.HostOptions{CallTimeout: time.Minute})
	t.Cleanup(h.Close)
	f := foundFor(p)

	out := make(chan plugin.MatchOutcome, 1)
	go func() {
		out <- h.Match(context.Background(), []plugin.MatchRequest{{Plugin: f, Key: "dies", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)}})[0]
	}()
	d := within(t, l.inst, "the plugin start")
	within(t, b.entered, "the item to reach the plugin")
	// The process starts to go: its connection drops, its exit is not seen
	// yet and its stderr has not been read.
	d.mu.Lock()
	d.dying = true
	d.mu.Unlock()
	d.conn.Close()

	select {
	case o := <-out:
		t.Fatalf("the crash was reported before the process exited: %+v", o)
	case <-d.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("the host never waited for the plugin's exit")
	}
	d.mu.Lock()
	d.tail = "panic: last words"
	d.mu.Unlock()
	close(d.exited)

	o := within(t, out, "the outcome")
	if !errors.Is(o.Err, plugin.ErrPluginCrashed) {
		t.Fatalf("want ErrPluginCrashed, got %+v", o)
	}
	if !strings.Contains(o.Err.Error(), "panic: last words") {
		t.Errorf("the crash error lacks the plugin's last stderr: %v", o.Err)
	}
}
