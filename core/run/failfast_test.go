package run_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/sdk/report"
)

// With one request in flight at a time, the order is the plan's, so the
// tests after the N-th failure are the ones left unstarted.
func TestMaxFailuresStopsStartingTests(t *testing.T) {
	for _, tc := range []struct {
		max         int
		wantRun     int // tests that ran (not skipped)
		wantSkipped int
		reason      string
	}{
		{max: 0, wantRun: 7, wantSkipped: 0},
		{max: 1, wantRun: 2, wantSkipped: 5, reason: "--fail-fast"},
		{max: 2, wantRun: 3, wantSkipped: 4, reason: "--max-failures 2"},
	} {
		pl, h := setup(t, suite)
		res := run.Execute(context.Background(), pl, run.Options{Host: h, Concurrency: 1, MaxFailures: tc.max})
		ran, skipped := 0, 0
		for _, tr := range res.Tests {
			if tr.Status != report.StatusSkipped {
				ran++
				continue
			}
			skipped++
			if tr.Error == nil || tr.Error.Kind != run.KindFailFast || !strings.Contains(tr.Error.Message, tc.reason) {
				t.Errorf("max %d: %s: skip reason %+v, want kind %s naming %s", tc.max, tr.Name, tr.Error, run.KindFailFast, tc.reason)
			}
		}
		if ran != tc.wantRun || skipped != tc.wantSkipped {
			t.Errorf("max %d: ran %d, skipped %d; want %d and %d", tc.max, ran, skipped, tc.wantRun, tc.wantSkipped)
		}
		if tc.max > 0 && res.ExitCode != 1 {
			t.Errorf("max %d: exit %d, want 1", tc.max, res.ExitCode)
		}
		if len(res.Servers) != 1 {
			t.Errorf("max %d: servers %+v: the server must be started and closed once", tc.max, res.Servers)
		}
	}
}
