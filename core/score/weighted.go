package score

import (
	"math"
	"strconv"

	"github.com/mcptest/mcptest/sdk/report"
)

// tolerance absorbs floating-point rounding in threshold comparisons, so
// a score that is mathematically equal to its threshold (weights such as
// 0.1 and 0.2 summing to 0.30000000000000004) is never failed by the last
// bit. Thresholds are inclusive.
const tolerance = 1e-9

// Reaches reports whether score is at or above threshold.
func Reaches(score, threshold float64) bool { return score >= threshold-tolerance }

// Entry is one scored unit of a test: an assertion (with a plain or a
// composed matcher), an assert-set, or a check of the whole step.
type Entry struct {
	// Name is the name derived metrics refer to the entry by; "" when it
	// has none.
	Name string
	// Weight is the entry's weight in the combined score (> 0).
	Weight float64
	// Status is passed, failed or errored.
	Status report.Status
	// Value is the entry's score as derived metrics see it: see Value.
	Value float64
	// Members are the entries of an assert-set; named members can be
	// referred to by derived metrics like any other assertion.
	Members []Entry
	// Gate marks a check of the whole step (max_duration_ms and the like):
	// it must pass whatever the threshold and does not count in the score.
	Gate bool
}

// Value is the score of one assertion for derived metrics: the matcher's
// graded score when it gave one, else 1 when the assertion passed and 0
// when it did not. A plain pass/fail is thus the 1.0 or 0.0 the spec's
// worked example uses.
func Value(status report.Status, graded *float64) float64 {
	if graded != nil && !math.IsNaN(*graded) {
		return min(max(*graded, 0), 1)
	}
	if status == report.StatusPassed {
		return 1
	}
	return 0
}

// Fraction is the weighted pass fraction of entries: the sum of the
// weights of those that passed over the sum of all weights. Gates and
// skipped entries do not count. With nothing weighed it is 1: nothing
// failed.
func Fraction(entries []Entry) float64 {
	var passed, total float64
	for _, e := range entries {
		if e.Gate || e.Status == report.StatusSkipped {
			continue
		}
		total += e.Weight
		if e.Status == report.StatusPassed {
			passed += e.Weight
		}
	}
	if total <= 0 {
		return 1
	}
	return passed / total
}

// Set judges an assert-set from its members: errored when a member could
// not be judged, else deferred when a member waits for a model key (the
// fraction is unknown), else passed when the weighted pass fraction
// reaches the threshold. The fraction is also the set's value for derived
// metrics.
func Set(members []Entry, threshold float64) (fraction float64, status report.Status) {
	fraction = Fraction(members)
	deferred := false
	for _, m := range members {
		switch m.Status {
		case report.StatusErrored:
			return fraction, report.StatusErrored
		case report.StatusDeferred:
			deferred = true
		}
	}
	if deferred {
		return fraction, report.StatusDeferred
	}
	if Reaches(fraction, threshold) {
		return fraction, report.StatusPassed
	}
	return fraction, report.StatusFailed
}

// Format renders a score or threshold for messages: at most three
// decimals, no trailing zeros (0.667, 0.75, 1).
func Format(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}
