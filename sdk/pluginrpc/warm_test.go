package pluginrpc_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
)

// A render warms the report types as soon as it opens, before any event
// arrives: in a fresh reporter process that is when the run is still
// going, rather than at run_finished, where mcptest waits for the report.
func TestRenderWarmsReportTypesBeforeTheFirstEvent(t *testing.T) {
	warmed := make(chan struct{})
	restore := pluginrpc.SetWarmReportTypes(func() { close(warmed) })
	defer restore()
	var sawEvent bool
	rep := sdk.FinalReporter(func(context.Context, *sdk.RenderSession, *report.Run) error {
		sawEvent = true
		return nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "r1", Version: "1.0.0", Reporters: map[string]sdk.Reporter{"final": rep}}, nil)
	rs, err := conn.Reporter.Render(context.Background(), pluginrpc.RenderStart{Key: "final"}, func(pluginrpc.Sink, []byte) {})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-warmed:
	case <-time.After(10 * time.Second):
		t.Fatal("the open render did not warm the report types")
	}
	if sawEvent {
		t.Fatal("the reporter ran before any event was sent")
	}
	b, _ := json.Marshal(report.Event{Type: report.EventRunFinished, Run: &report.Run{}})
	if err := rs.Send(b); err != nil {
		t.Fatal(err)
	}
	if err := rs.Close(); err != nil {
		t.Fatal(err)
	}
}
