package report

import (
	"errors"
	"math"
	"testing"
	"time"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// runOf builds a run started at minute m with the given statuses and
// durations, by test id.
func runOf(m int, tests map[string]rpt.Status, ms float64) *rpt.Run {
	r := &rpt.Run{RunID: "r", StartedAt: time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC), DurationMS: 1000 * float64(m+1)}
	for _, id := range []string{"a", "b", "c", "d"} {
		if st, ok := tests[id]; ok {
			r.Tests = append(r.Tests, rpt.Test{ID: id, Name: id, Status: st, DurationMS: ms})
		}
	}
	return r
}

func TestTrend(t *testing.T) {
	P, F, E, S := rpt.StatusPassed, rpt.StatusFailed, rpt.StatusErrored, rpt.StatusSkipped
	runs := []*rpt.Run{
		// Given out of order: the trend sorts by start time.
		runOf(2, map[string]rpt.Status{"a": P, "b": F, "c": P, "d": S}, 30),
		runOf(0, map[string]rpt.Status{"a": P, "b": P, "c": P, "d": F}, 10),
		runOf(1, map[string]rpt.Status{"a": P, "b": E, "c": P, "d": S}, 20),
		runOf(3, map[string]rpt.Status{"a": P, "b": P, "c": P, "d": S}, 40),
	}
	tr, err := NewTrend(runs, []string{"m2", "m0", "m1", "m3"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range tr.Points {
		files = append(files, p.File)
	}
	if got := files; got[0] != "m0" || got[3] != "m3" {
		t.Errorf("order %v", got)
	}
	p0, p2 := tr.Points[0], tr.Points[2]
	if p0.PassRate != 75 || p0.Ran != 4 || p0.P95MS != 10 || p2.PassRate != 200.0/3 || p2.Skipped != 1 || p2.DurationMS != 3000 {
		t.Errorf("points %+v / %+v", p0, p2)
	}
	// b: passed, errored, failed, passed: flaky with two flips. d failed
	// once and was skipped otherwise: not flaky.
	if len(tr.Flaky) != 1 || tr.Flaky[0].ID != "b" || tr.Flaky[0].Passed != 2 || tr.Flaky[0].Failed != 2 || tr.Flaky[0].Flips != 2 || tr.Flaky[0].Last != P {
		t.Errorf("flaky %+v", tr.Flaky)
	}
	// A window of the last two runs sees b fail then pass.
	tr, _ = NewTrend(runs, nil, 2)
	if len(tr.Flaky) != 1 || tr.Flaky[0].Flips != 1 {
		t.Errorf("window 2: %+v", tr.Flaky)
	}
	// Window 1 can flip nothing.
	tr, _ = NewTrend(runs, nil, 1)
	if len(tr.Flaky) != 0 {
		t.Errorf("window 1: %+v", tr.Flaky)
	}
	empty, _ := NewTrend([]*rpt.Run{runOf(0, map[string]rpt.Status{"a": S}, 0)}, nil, 0)
	if !math.IsNaN(empty.Points[0].PassRate) {
		t.Errorf("a run of skips has pass rate %v", empty.Points[0].PassRate)
	}
	if _, err := NewTrend(nil, nil, 0); !errors.Is(err, ErrNoRuns) {
		t.Errorf("no runs: %v", err)
	}
}
