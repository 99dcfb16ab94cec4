package assert

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/score"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// setMatcher is the matcher name an assert-set is reported under.
const setMatcher = "assert-set"

// finishSet judges an assert-set from its judged members: errored when a
// member could not be judged, else passed when the weighted pass fraction
// of its members reaches the set's threshold. The fraction is reported as
// the set's score.
func finishSet(res *rpt.Assertion, a *plan.Assertion) {
	members := make([]score.Entry, len(a.Members))
	for k, m := range a.Members {
		members[k] = entryOf(m, &res.Assertions[k])
	}
	frac, st := score.Set(members, a.Spec.Set.Threshold)
	res.Score, res.Status = &frac, st
	switch st {
	case rpt.StatusErrored:
		for k := range res.Assertions {
			if m := &res.Assertions[k]; m.Status == rpt.StatusErrored {
				res.Error = fmt.Sprintf("member %d (%s %s): %s", k, m.Target, m.Matcher, m.Error)
				res.Plugin = m.Plugin
				break
			}
		}
	case rpt.StatusFailed:
		passed := 0
		for _, m := range members {
			if m.Status == rpt.StatusPassed {
				passed++
			}
		}
		res.Failure, _ = json.Marshal(map[string]any{
			"expected": a.Spec.Set.Threshold,
			"actual":   math.Round(frac*1000) / 1000, // the exact value is the score
			"note": fmt.Sprintf("%d of %d assertions passed: weighted score %s, below the set threshold %s",
				passed, len(members), score.Format(frac), score.Format(a.Spec.Set.Threshold)),
		})
	}
}

// entryOf is the scoring view of one judged entry: its name, weight and
// verdict, and the value derived metrics see (a set's fraction, a
// matcher's graded score, else 1 or 0).
func entryOf(a *plan.Assertion, res *rpt.Assertion) score.Entry {
	e := score.Entry{Name: a.Spec.Name, Weight: a.Spec.Weight, Status: res.Status}
	if a.Members == nil {
		e.Value = score.Value(res.Status, res.Score)
		return e
	}
	if res.Score != nil {
		e.Value = *res.Score
	}
	e.Members = make([]score.Entry, len(a.Members))
	for k, m := range a.Members {
		e.Members[k] = entryOf(m, &res.Assertions[k])
	}
	return e
}
