package report

import (
	"context"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Replay emits a saved run as the live events it came from, so every
// reporter (streaming ones included) renders a saved report exactly as it
// would have rendered the run.
func Replay(ctx context.Context, e *Emitter, run *rpt.Run) {
	header := *run
	header.Tests = nil
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunStarted, Time: run.StartedAt, Total: len(run.Tests), Run: &header})
	for i := range run.Tests {
		t := run.Tests[i]
		start := t.Header()
		e.Emit(ctx, rpt.Event{Type: rpt.EventTestStarted, Time: run.StartedAt, Test: &start})
		e.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Time: run.FinishedAt, Test: &t})
	}
	e.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Time: run.FinishedAt, Run: run})
}
