package assert

import (
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/score"
	"github.com/mcptest/mcptest/internal/slicepool"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// entryPool recycles the scoring entries of a test.
var entryPool slicepool.Pool[score.Entry]

// Verdict judges the whole step and scores a test whose expect entries are
// judged (res.Assertions, from Judge.Test): it appends the checks of the long
// form of expect (s may be nil when there is no single call to judge), then
// sets res.Status, and for tests that declare them res.Score and
// res.Threshold (a threshold) and res.DerivedMetrics (derived metrics). A
// failure that only the score model explains (a score below the threshold,
// a gated metric) sets res.Error unless something already did.
func Verdict(t *plan.Test, res *rpt.Test, s *Step) {
	defer noteDeferred(res)
	o := t.Options
	if o == nil {
		res.Status = score.TestStatus(res.Assertions)
		return
	}
	if o.Threshold == nil && len(o.DerivedMetrics) == 0 && (o.ExpectOptions == nil || s == nil) {
		// Most tests: every assertion must pass, and nothing else is
		// scored; the statuses are read in place instead of through a
		// scoring entry per assertion.
		res.Status, res.Score, res.DerivedMetrics = score.PlainStatus(res.Assertions), nil, nil
		return
	}
	judged := len(res.Assertions)
	if o.ExpectOptions != nil && s != nil {
		res.Assertions = append(res.Assertions, stepChecks(o.ExpectOptions, *s, judged)...)
	}
	// score.Verdict does not keep the entries, so they are recycled.
	in := score.Input{Threshold: o.Threshold, Metrics: o.DerivedMetrics, Entries: entryPool.Get(len(res.Assertions))[:len(res.Assertions)]}
	defer entryPool.Put(in.Entries)
	for i := range res.Assertions {
		if i < judged && i < len(t.Assertions) {
			in.Entries[i] = entryOf(t.Assertions[i], &res.Assertions[i])
			continue
		}
		in.Entries[i] = score.Entry{Weight: 1, Status: res.Assertions[i].Status, Gate: true}
	}
	v := score.Verdict(in)
	res.Status, res.Score, res.DerivedMetrics = v.Status, v.Score, v.Metrics
	if o.Threshold != nil && v.Status != rpt.StatusErrored {
		th := *o.Threshold
		res.Threshold = &th
	}
	if v.Reason != nil && res.Error == nil {
		res.Error = v.Reason
	}
}

// noteDeferred gives a deferred test the note of its first deferred
// assertion (the variable to set), as a deferred agent test has.
func noteDeferred(res *rpt.Test) {
	if res.Status != rpt.StatusDeferred || res.Error != nil {
		return
	}
	if msg, ok := firstDeferred(res.Assertions); ok {
		res.Error = &rpt.Error{Kind: "deferred", Message: msg}
	}
}
