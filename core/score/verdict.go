package score

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk/report"
)

// Input is what a test's verdict is computed from.
type Input struct {
	// Entries are the judged expect entries in order, then the step
	// checks (Gate set).
	Entries []Entry
	// Threshold is the combined score the test needs; nil keeps the legacy
	// rule: every entry must pass.
	Threshold *float64
	// Metrics are the test's derived metrics in declaration order.
	Metrics []*config.DerivedMetric
}

// Result is a test's verdict.
type Result struct {
	// Status is passed, failed, errored or deferred.
	Status report.Status
	// Score is the combined score; set only when the test declares a
	// threshold, so that legacy reports keep their shape.
	Score *float64
	// Metrics are the derived metrics; nil when none are declared or the
	// test errored (its values would mean nothing).
	Metrics []report.DerivedMetric
	// Reason explains a failure that no single entry explains: the score
	// below the threshold, or a gated derived metric below its own; nil
	// otherwise.
	Reason *report.Error
}

// Verdict scores a test:
//
//   - any entry that could not be judged makes the test errored; a skipped
//     entry (a duration budget on a cache hit) counts for nothing;
//   - an entry deferred for want of a model key makes the test deferred,
//     unless an entry already failed it for certain (without a threshold,
//     any failed entry; with one, a failed gate);
//   - a gate (a step check) that fails fails the test;
//   - with a threshold, the test passes when the weighted pass fraction of
//     its entries reaches it (inclusive); an assert-set counts as one unit
//     that contributes its weight when it passed and nothing when not;
//   - without one, every entry must pass (the legacy rule);
//   - a derived metric with a threshold gates the test as well, even when
//     the combined score is met.
func Verdict(in Input) Result {
	var res Result
	status := report.StatusPassed
	deferred := false
	for _, e := range in.Entries {
		switch e.Status {
		case report.StatusErrored:
			return Result{Status: report.StatusErrored}
		case report.StatusPassed, report.StatusSkipped:
		case report.StatusDeferred:
			deferred = true
		default:
			if e.Gate || in.Threshold == nil {
				status = report.StatusFailed
			}
		}
	}
	if deferred && status == report.StatusPassed {
		// What was judged did not fail, but an entry waits for a model
		// key: the score and the metrics would be guesses.
		return Result{Status: report.StatusDeferred}
	}
	if in.Threshold != nil {
		s, th := Fraction(in.Entries), *in.Threshold
		res.Score = &s
		if !Reaches(s, th) {
			status = report.StatusFailed
			res.Reason = &report.Error{Kind: "threshold",
				Message: fmt.Sprintf("score %s is below the threshold %s", Format(s), Format(th))}
		}
	}
	res.Metrics = Metrics(in.Entries, in.Metrics)
	for _, m := range res.Metrics {
		if m.Passed != nil && !*m.Passed {
			status = report.StatusFailed
			if res.Reason == nil {
				res.Reason = &report.Error{Kind: "derived_metric",
					Message: fmt.Sprintf("derived metric %q is %s, below its threshold %s", m.Name, Format(m.Value), Format(*m.Threshold))}
			}
		}
	}
	res.Status = status
	return res
}

// PlainStatus is the status Verdict gives a test without a threshold,
// derived metrics or step checks, whose entries are the judged
// assertions: errored when one errored, else failed when one failed (or
// warned), else deferred when one was deferred, else passed (skipped
// entries count for nothing). It reads the statuses in place, sparing
// the runner a scoring entry per assertion for the common test.
func PlainStatus(assertions []report.Assertion) report.Status {
	status := report.StatusPassed
	deferred := false
	for i := range assertions {
		switch assertions[i].Status {
		case report.StatusErrored:
			return report.StatusErrored
		case report.StatusPassed, report.StatusSkipped:
		case report.StatusDeferred:
			deferred = true
		default:
			status = report.StatusFailed
		}
	}
	if deferred && status == report.StatusPassed {
		return report.StatusDeferred
	}
	return status
}
