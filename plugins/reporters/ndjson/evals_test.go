package main

import (
	"testing"

	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// Each test_finished line carries its grade as the test finishes, and the
// run_finished line the run's trials (pass@k, pass^k, flaky) and costs.
func TestEvalsStream(t *testing.T) {
	run := reporttest.Evals()
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "ndjson"}, reporttest.EventsOf(run))
	if got.Err != nil {
		t.Fatal(got.Err)
	}
	evs := decodeLines(t, got.Primary)
	graded := 0
	for _, ev := range evs {
		if ev.Type == report.EventTestFinished && ev.Test != nil {
			if ev.Test.Eval != nil {
				graded++
			}
			for _, a := range ev.Test.Assertions {
				if a.Eval != nil {
					graded++
				}
			}
		}
	}
	if graded != 12 {
		t.Errorf("%d grades streamed, want 12 (every eval but the deferred one, and two judged metrics)", graded)
	}
	last := evs[len(evs)-1].Run
	if last == nil || last.Trials == nil || last.Trials.Flaky != 1 || last.Trials.PassHatK != 0 || last.Costs == nil || last.Costs.TotalUSD != 0.0093 {
		t.Errorf("run_finished: %+v", last)
	}
}
