package assert

import (
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/score"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Compositions (not, anyOf, allOf, oneOf) are structural: their leaves were
// judged by the plugins in the test's batch, and the core combines the
// verdicts here (core/score.Combine). A leaf that could not be judged makes
// the whole composition errored with that leaf's error unchanged (a bad
// regex stays "invalid argument", not a failing branch), because dropping a
// branch would change the composition's truth value unseen.

// maxFailureValue caps the value a composition's failure repeats.
const maxFailureValue = 16 << 10

// branch is one inner matcher in a composition's failure: its verdict and,
// for a failed leaf, the plugin's failure; for a nested composition, its
// own branches.
type branch struct {
	Matcher  string          `json:"matcher"`
	Argument json.RawMessage `json:"argument,omitempty"`
	Status   rpt.Status      `json:"status"`
	Note     string          `json:"note,omitempty"`
	Failure  json.RawMessage `json:"failure,omitempty"`
	Branches []branch        `json:"branches,omitempty"`
}

// finishComposition reads the verdicts of a composition's leaves and
// combines them. Only a failed composition pays for its failure shape.
func (j *judging) finishComposition(res *rpt.Assertion, a *plan.Assertion) {
	actual := j.actuals[j.acur]
	j.acur++
	start := j.cur
	pass, bad := j.eval(a.Matcher)
	switch {
	case bad != nil && bad.Err == nil:
		// A leaf deferred for want of a model key (a private matcher the
		// loader could not know calls a model): nothing to combine.
		res.Status, res.Error = j.jd.deferred(bad.Deferred)
		res.Plugin = bad.Plugin
	case bad != nil:
		res.Status = rpt.StatusErrored
		res.Error = j.jd.outcomeError(*bad)
		res.Plugin = bad.Plugin
	case pass:
		res.Status = rpt.StatusPassed
	default:
		res.Status = rpt.StatusFailed
		end := j.cur
		j.cur = start
		top := j.branch(a.Matcher)
		j.cur = end
		failure, _ := json.Marshal(struct {
			Actual   json.RawMessage `json:"actual"`
			Note     string          `json:"note"`
			Branches []branch        `json:"branches"`
		}{capValue(actual), top.Note, top.Branches})
		res.Failure = j.jd.Redact.Bytes(failure)
	}
}

// eval combines the verdicts of m's leaves, reading them from the cursor.
// It returns the first leaf verdict that is an error or a deferral, if
// any; every leaf is read either way, so the cursor stays in step.
func (j *judging) eval(m *plan.Matcher) (bool, *plugin.MatchOutcome) {
	if m.Plugin != nil {
		o := &j.outs[j.cur]
		j.cur++
		if o.Err != nil || o.Deferred != "" {
			return false, o
		}
		return o.Pass, nil
	}
	var buf [8]bool
	passed := buf[:0]
	var bad *plugin.MatchOutcome
	for _, c := range m.Children {
		p, e := j.eval(c)
		passed = append(passed, p)
		if e != nil && bad == nil {
			bad = e
		}
	}
	if bad != nil {
		return false, bad
	}
	ok, err := score.Combine(m.Spec.Key, passed)
	if err != nil {
		return false, &plugin.MatchOutcome{Err: fmt.Errorf("composition %s: %w", m.Spec.Key, err)}
	}
	return ok, nil
}

// branch builds the failure shape of m from its leaves' verdicts (none of
// them errored: eval said so).
func (j *judging) branch(m *plan.Matcher) branch {
	if m.Plugin != nil {
		o := j.outs[j.cur]
		j.cur++
		b := branch{Matcher: m.Spec.Key, Argument: m.Spec.Arg, Status: rpt.StatusPassed}
		if !o.Pass {
			b.Status = rpt.StatusFailed
			b.Failure = withoutActual(o.Failure)
		}
		return b
	}
	b := branch{Matcher: m.Spec.Key, Branches: make([]branch, 0, len(m.Children))}
	passed := make([]bool, 0, len(m.Children))
	for _, c := range m.Children {
		cb := j.branch(c)
		b.Branches = append(b.Branches, cb)
		passed = append(passed, cb.Status == rpt.StatusPassed)
	}
	ok, _ := score.Combine(m.Spec.Key, passed)
	b.Status = rpt.StatusFailed
	if ok {
		b.Status = rpt.StatusPassed
	}
	b.Note = score.CombineNote(m.Spec.Key, passed)
	return b
}

// withoutActual drops "actual" from a leaf's failure: the composition's
// failure shows the value once for all its branches.
func withoutActual(failure json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(failure, &fields) != nil || fields == nil {
		return failure
	}
	if _, ok := fields["actual"]; !ok {
		return failure
	}
	delete(fields, "actual")
	if len(fields) == 0 {
		return nil
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return failure
	}
	return out
}

// capValue keeps a value a failure repeats to a readable size; a larger
// one becomes a string holding its beginning.
func capValue(v json.RawMessage) json.RawMessage {
	if len(v) <= maxFailureValue {
		return v
	}
	s, _ := json.Marshal(fmt.Sprintf("%s…[truncated: %d bytes in total]", v[:maxFailureValue], len(v)))
	return s
}
