package spans

import (
	"math"

	"github.com/mcptest/mcptest/sdk/report"
)

// clock places spans in time. The report records when the run started
// and finished and how long each test took, but not when each test
// started (tests on a server run concurrently), so every test span starts
// at the run's start and lasts its recorded duration. The run span then
// ends at its finish time or at its last child's end, whichever is later,
// so children always lie within it.
type clock struct {
	// base is the run's start in Unix nanoseconds: its start time, or
	// its finish time less its duration, or 0 when the report has
	// neither.
	base     int64
	duration int64
}

// newClock reads the run's bounds.
func newClock(run *report.Run) clock {
	d := nanos(runDurationMS(run))
	var base int64
	switch {
	case !run.StartedAt.IsZero():
		base = run.StartedAt.UnixNano()
	case !run.FinishedAt.IsZero():
		base = run.FinishedAt.UnixNano() - d
	}
	if base < 0 {
		base = 0 // before 1970: OTLP times are unsigned
	}
	c := clock{base: base, duration: d}
	if !run.StartedAt.IsZero() && run.FinishedAt.After(run.StartedAt) {
		c.duration = max(c.duration, run.FinishedAt.UnixNano()-base)
	}
	return c
}

// placeTest sets a test span's bounds from its recorded duration.
func (c clock) placeTest(sp *Span, t *report.Test) {
	sp.StartUnixNano = c.base
	sp.EndUnixNano = c.base + nanos(t.DurationMS)
}

// placeRun sets the root's bounds around its children.
func (c clock) placeRun(root *Span, children []Span) {
	root.StartUnixNano = c.base
	root.EndUnixNano = c.base + c.duration
	for i := range children {
		root.EndUnixNano = max(root.EndUnixNano, children[i].EndUnixNano)
	}
}

// nanos converts milliseconds to nanoseconds, rounding, with negative,
// NaN and absurd values (over a year) clamped so sums cannot overflow.
func nanos(ms float64) int64 {
	const yearMS = 365 * 24 * 3600 * 1000.0
	if !(ms > 0) {
		return 0
	}
	return int64(math.Round(min(ms, yearMS) * 1e6))
}
