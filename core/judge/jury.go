package judge

import (
	"fmt"
	"sort"

	"github.com/mcptest/mcptest/internal/agreement"
	"github.com/mcptest/mcptest/sdk/report"
)

// combineSeats turns the non-abstaining gradings of a jury or panel into
// the verdict. A jury passes when at least Consensus of its gradings
// pass. A panel combines by Aggregate: the mean or median of the
// per-model gradings (criterion by criterion for a criteria rubric, so
// the gates still apply) against the threshold, or the majority of the
// per-model verdicts with TieBreak settling a tie. The reported score is
// always the mean.
func (e *Engine) combineSeats(ev *report.Eval, s Spec, kind string, gs []grading) {
	r := s.Rubric
	var scores []float64
	passes := 0
	for _, g := range gs {
		scores = append(scores, g.score)
		if g.passed {
			passes++
		}
	}
	jury := &report.EvalJury{Kind: kind, Size: len(ev.Jurors), Abstained: len(ev.Jurors) - len(gs),
		PassFraction: float64(passes) / float64(len(gs))}
	jury.Alpha = alpha(gs)
	ev.Jury = jury
	ev.Score = mean(scores)
	ev.Path = gs[0].path
	ev.Criteria = mergeCriteria(r, gs, "mean")
	switch kind {
	case "jury":
		jury.Consensus = s.Consensus
		ev.Passed = jury.PassFraction >= s.Consensus-epsilon
		ev.Reason = fmt.Sprintf("jury: %d of %d non-abstaining jurors passed (%.2f, consensus %.2f); first juror: %s",
			passes, len(gs), jury.PassFraction, s.Consensus, gs[0].reason)
	case "panel":
		jury.Aggregate, jury.TieBreak = s.Aggregate, s.TieBreak
		switch s.Aggregate {
		case "majority":
			fails := len(gs) - passes
			ev.Passed = passes > fails || (passes == fails && s.TieBreak == "pass")
			ev.Reason = fmt.Sprintf("panel majority: %d pass, %d fail", passes, fails)
			if passes == fails {
				ev.Reason += ", tie broken to " + s.TieBreak
			}
		default:
			var agg float64
			var why string
			if r.Form == FormCriteria {
				merged := mergeCriteria(r, gs, s.Aggregate)
				agg, ev.Passed, why = combine(r, merged)
			} else {
				agg = aggregate(s.Aggregate, scores, nil)
				ev.Passed = meets(agg, r.Threshold, r.Strict)
				why = fmt.Sprintf("threshold %.2f", r.Threshold)
			}
			ev.Reason = fmt.Sprintf("panel %s %.2f (%s); mean %.2f", s.Aggregate, agg, why, ev.Score)
		}
	}
}

// mergeCriteria combines the jurors' grades criterion by criterion (mean
// or median of the scores); reasons and evidence are the first juror's.
func mergeCriteria(r *Resolved, gs []grading, how string) []report.EvalCriterion {
	if len(gs[0].criteria) == 0 {
		return nil
	}
	out := make([]report.EvalCriterion, len(gs[0].criteria))
	for i := range out {
		out[i] = gs[0].criteria[i]
		var vals []float64
		found := true
		for _, g := range gs {
			c := g.criteria[i]
			if c.Score != nil {
				vals = append(vals, *c.Score)
			}
			found = found && (c.EvidenceFound || c.Skipped)
		}
		out[i].EvidenceFound = found
		if len(vals) == 0 {
			continue
		}
		v := aggregate(how, vals, nil)
		out[i].Score = &v
		out[i].Cached = allCached(gs, i)
		if i < len(r.Criteria) {
			cr := r.Criteria[i]
			out[i].Passed = criterionPasses(&cr, v) && (!r.RequireEvidence || found || (cr.Guard && criterionPasses(&cr, v)))
		}
	}
	return out
}

func allCached(gs []grading, i int) bool {
	for _, g := range gs {
		if !g.criteria[i].Cached {
			return false
		}
	}
	return true
}

// alpha is Krippendorff's alpha (interval) over the gradings: one unit
// per question asked (criterion or tree question), one value per juror
// that answered it. nil when undefined.
func alpha(gs []grading) *float64 {
	keys := map[string]bool{}
	for _, g := range gs {
		for k := range g.raw {
			keys[k] = true
		}
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var units [][]float64
	for _, k := range names {
		var unit []float64
		for _, g := range gs {
			if v, ok := g.raw[k]; ok {
				unit = append(unit, v)
			}
		}
		units = append(units, unit)
	}
	a, err := agreement.Alpha(units, agreement.Interval)
	if err != nil {
		return nil
	}
	return &a
}
