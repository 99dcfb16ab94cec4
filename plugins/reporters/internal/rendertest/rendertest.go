// Package rendertest is the harness the bundled reporters' tests share:
// it streams a run through a reporter plugin over real gRPC (sdk/plugintest)
// and returns what the plugin wrote, so each reporter's tests hold only
// what is particular to its format.
package rendertest

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// Primary streams events through the reporter key of p and returns what
// it wrote to the primary sink. A render error, or anything written to
// the progress or step-summary sinks, fails t: these reporters write
// their document to the primary sink only.
func Primary(t *testing.T, p *sdk.Plugin, key string, events []report.Event) string {
	t.Helper()
	c := plugintest.New(t, p, nil)
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: key}, events)
	if out.Err != nil {
		t.Fatalf("render: %v", out.Err)
	}
	if out.Progress != "" || out.StepSummary != "" {
		t.Errorf("reporter wrote outside the primary sink: %q %q", out.Progress, out.StepSummary)
	}
	return out.Primary
}

// Finished is the event stream of a run known only by its final report
// (what `mcptest report` re-renders).
func Finished(run *report.Run) []report.Event {
	return []report.Event{{Type: report.EventRunFinished, Run: run}}
}

// NeedsRunFinished checks that the reporter key of p refuses a stream
// closed before run_finished, naming the missing event, rather than
// writing a partial document as if it were whole.
func NeedsRunFinished(t *testing.T, p *sdk.Plugin, key string) {
	t.Helper()
	c := plugintest.New(t, p, nil)
	stream, err := c.Reporter.Render(context.Background(), plugintest.RenderStart{Key: key}, func(plugintest.Sink, []byte) {})
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Close(); err == nil || !strings.Contains(err.Error(), "run_finished") {
		t.Errorf("Close = %v, want the missing run_finished error", err)
	}
}

// LiveMatchesSaved renders run twice through the reporter key of p: as
// the live event stream of a run (run_started, each test's started and
// finished events, run_finished) and as the final report alone (what
// `mcptest report` re-renders). The two outputs must be the same, so a
// saved report tells what the live run told. It returns the output.
func LiveMatchesSaved(t *testing.T, p *sdk.Plugin, key string, run *report.Run) string {
	t.Helper()
	live := Primary(t, p, key, reporttest.EventsOf(run))
	if saved := Primary(t, p, key, Finished(run)); saved != live {
		t.Errorf("%s: the live run and its saved report render differently:\n--- live\n%s\n--- saved\n%s", key, live, saved)
	}
	return live
}
