package plugin_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/report"
)

// reporters of the render tests:
//
//	"count"  writes one line per event and "end" when the stream ends
//	"deaf"   never reads an event and never returns
//	"stuck"  reads every event, then never returns
func renderPlugin() *sdk.Plugin {
	return &sdk.Plugin{Name: "rep", Version: "1.0.0", Reporters: map[string]sdk.Reporter{
		"count": sdk.ReporterFunc(func(_ context.Context, s *sdk.RenderSession) error {
			n := 0
			for range s.Events() {
				n++
				fmt.Fprintf(s.Primary, "event %d\n", n)
			}
			fmt.Fprintln(s.Primary, "end")
			return nil
		}),
		"deaf": sdk.ReporterFunc(func(context.Context, *sdk.RenderSession) error {
			select {}
		}),
		"stuck": sdk.ReporterFunc(func(_ context.Context, s *sdk.RenderSession) error {
			for range s.Events() {
			}
			select {}
		}),
	}}
}

// collector gathers a stream's output.
type collector struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *collector) write(_ pluginrpc.Sink, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(b)
}

func (c *collector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

func event(t *testing.T) []byte {
	t.Helper()
	return []byte(`{"type":"` + report.EventRunStarted + `"}`)
}

// A render outlives the context it was opened with: Ctrl-C cancels the
// run's context, and the final report must still get through.
func TestRenderSurvivesCancelledContext(t *testing.T) {
	p := renderPlugin()
	h, _ := newTestHost(t, plugin.HostOptions{CallTimeout: 10 * time.Second}, p)
	ctx, cancel := context.WithCancel(context.Background())
	var out collector
	rs, err := h.Render(ctx, foundFor(p), pluginrpc.RenderStart{Key: "count"}, out.write)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Send(event(t)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := rs.Send(event(t)); err != nil {
		t.Fatalf("send after the context was cancelled: %v", err)
	}
	if err := rs.Close(); err != nil {
		t.Fatalf("close after the context was cancelled: %v", err)
	}
	if got := out.String(); got != "event 1\nevent 2\nend\n" {
		t.Errorf("output %q", got)
	}
}

// A reporter that stops reading events cannot hold a send forever: once
// the transport's buffers are full, the send fails within the call
// timeout, as a hung plugin, and the plugin is stopped.
func TestRenderSendToDeafReporterHitsTheDeadline(t *testing.T) {
	p := renderPlugin()
	h, l := newTestHost(t, plugin.HostOptions{CallTimeout: 300 * time.Millisecond}, p)
	var out collector
	rs, err := h.Render(context.Background(), foundFor(p), pluginrpc.RenderStart{Key: "deaf"}, out.write)
	if err != nil {
		t.Fatal(err)
	}
	big := []byte(`{"type":"run_started","pad":"` + strings.Repeat("x", 1<<20) + `"}`)
	var sendErr error
	// gRPC buffers a few windows' worth; a hundred MiB is far beyond them.
	for range 100 {
		if sendErr = rs.Send(big); sendErr != nil {
			break
		}
	}
	if !errors.Is(sendErr, plugin.ErrPluginHung) {
		t.Fatalf("send error = %v, want ErrPluginHung", sendErr)
	}
	var pe *plugin.PluginError
	if !errors.As(sendErr, &pe) || pe.Plugin != "rep" || !strings.Contains(pe.Error(), `reporter "deaf" stopped taking events`) || !strings.Contains(pe.Error(), "--plugin-timeout") {
		t.Errorf("error does not name the plugin, the reporter and the flag: %v", sendErr)
	}
	if err := rs.Close(); !errors.Is(err, plugin.ErrPluginHung) {
		t.Errorf("close after the hang = %v, want the hang", err)
	}
	if l.Starts("rep") != 1 {
		t.Errorf("plugin started %d times", l.Starts("rep"))
	}
}

// A reporter that takes every event but never finishes its report cannot
// hold Close forever.
func TestRenderCloseOfStuckReporterHitsTheDeadline(t *testing.T) {
	p := renderPlugin()
	h, _ := newTestHost(t, plugin.HostOptions{CallTimeout: time.Second}, p)
	var out collector
	rs, err := h.Render(context.Background(), foundFor(p), pluginrpc.RenderStart{Key: "stuck"}, out.write)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Send(event(t)); err != nil {
		t.Fatal(err)
	}
	err = rs.Close()
	if !errors.Is(err, plugin.ErrPluginHung) || !strings.Contains(err.Error(), `reporter "stuck" did not finish its report`) {
		t.Fatalf("close error = %v, want a hang naming the reporter", err)
	}
	// The plugin is marked stopped: another render fails at once.
	if _, err := h.Render(context.Background(), foundFor(p), pluginrpc.RenderStart{Key: "count"}, out.write); !errors.Is(err, plugin.ErrPluginHung) {
		t.Errorf("render on a stopped plugin = %v, want the hang", err)
	}
}
