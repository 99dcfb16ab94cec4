package plugintest

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// Rendered is what a reporter wrote, by sink, and the error it ended with.
type Rendered struct {
	Primary, Progress, StepSummary string
	Err                            error
}

// Render streams events through the connection's reporter exactly as
// mcptest does and collects the output.
func Render(t testing.TB, c *Conn, start RenderStart, events []report.Event) Rendered {
	t.Helper()
	if c.Reporter == nil {
		t.Fatal("plugintest: the plugin serves no reporters")
	}
	var mu sync.Mutex
	bufs := map[Sink]*bytes.Buffer{SinkPrimary: {}, SinkProgress: {}, SinkStepSummary: {}}
	rs, err := c.Reporter.Render(context.Background(), start, func(s Sink, b []byte) {
		mu.Lock()
		defer mu.Unlock()
		if buf, ok := bufs[s]; ok {
			buf.Write(b)
		}
	})
	if err != nil {
		t.Fatalf("plugintest: render: %v", err)
	}
	var out Rendered
	for _, ev := range events {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("plugintest: encode event: %v", err)
		}
		if err := rs.Send(b); err != nil {
			out.Err = err
			break
		}
	}
	if err := rs.Close(); err != nil && out.Err == nil {
		out.Err = err
	}
	mu.Lock()
	defer mu.Unlock()
	out.Primary = bufs[SinkPrimary].String()
	out.Progress = bufs[SinkProgress].String()
	out.StepSummary = bufs[SinkStepSummary].String()
	return out
}
