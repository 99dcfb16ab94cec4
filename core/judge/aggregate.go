package judge

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// AllSkippedReason is the reason of a criteria rubric whose every
// criterion was skipped by its when: predicate. Such a grade fails: a
// rubric that graded nothing proves nothing, and passing it would be a
// vacuous pass.
const AllSkippedReason = "every criterion was skipped (no when: predicate held), so nothing was graded; failing rather than passing vacuously"

// combine turns criterion grades into the rubric's score, verdict and
// reason: the aggregation over the graded criteria (a guard counts as
// 1 - its score, since it must not hold), the threshold, and the gates
// (required, guard, a criterion's own threshold, missing evidence), which
// fail the rubric whatever the aggregate.
func combine(r *Resolved, cs []report.EvalCriterion) (score float64, passed bool, reason string) {
	var vals, weights []float64
	var gates []string
	for i, c := range cs {
		if c.Skipped || c.Score == nil {
			continue
		}
		v := *c.Score
		if c.Guard {
			v = 1 - v
		}
		vals = append(vals, v)
		weights = append(weights, c.Weight)
		gating := c.Required || c.Guard || (i < len(r.Criteria) && r.Criteria[i].OwnThreshold)
		evidenceMissing := r.RequireEvidence && !c.EvidenceFound && !(c.Guard && c.Passed)
		if !c.Passed && (gating || evidenceMissing) {
			gates = append(gates, gateText(c, evidenceMissing))
		}
	}
	if len(vals) == 0 {
		return 0, false, AllSkippedReason
	}
	score = aggregate(r.Aggregation, vals, weights)
	over := meets(score, r.Threshold, r.Strict)
	passed = over && len(gates) == 0
	need := fmt.Sprintf("threshold %.2f", r.Threshold)
	if r.Strict {
		need = "a perfect score (strict)"
	}
	switch {
	case passed:
		reason = fmt.Sprintf("score %.2f meets %s", score, need)
	case len(gates) > 0 && over:
		reason = fmt.Sprintf("score %.2f meets %s, but %s", score, need, strings.Join(gates, "; "))
	case len(gates) > 0:
		reason = fmt.Sprintf("score %.2f is below %s, and %s", score, need, strings.Join(gates, "; "))
	default:
		reason = fmt.Sprintf("score %.2f is below %s", score, need)
	}
	return score, passed, reason
}

func gateText(c report.EvalCriterion, evidenceMissing bool) string {
	switch {
	case c.Guard:
		return fmt.Sprintf("guard %q holds", c.Name)
	case evidenceMissing:
		return fmt.Sprintf("criterion %q has no verifiable evidence", c.Name)
	case c.Required:
		return fmt.Sprintf("required criterion %q does not hold", c.Name)
	default:
		return fmt.Sprintf("criterion %q is below its threshold %.2f", c.Name, c.Threshold)
	}
}

// aggregate combines values: a weight-normalised mean, or the unweighted
// min, max or median.
func aggregate(how string, vals, weights []float64) float64 {
	switch how {
	case "min":
		m := vals[0]
		for _, v := range vals[1:] {
			m = math.Min(m, v)
		}
		return m
	case "max":
		m := vals[0]
		for _, v := range vals[1:] {
			m = math.Max(m, v)
		}
		return m
	case "median":
		return median(vals)
	}
	var sum, wsum float64
	for i, v := range vals {
		w := 1.0
		if i < len(weights) && weights[i] > 0 {
			w = weights[i]
		}
		sum += v * w
		wsum += w
	}
	return sum / wsum
}

func median(vals []float64) float64 {
	s := append([]float64(nil), vals...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func mean(vals []float64) float64 {
	var sum float64
	for _, v := range vals {
		sum += v
	}
	return sum / float64(len(vals))
}

// Display is score in the rubric's scale for a person: "4.2/5" on a
// likert scale, "80%" on a percent scale, "" on the 0..1 scale.
func Display(score float64, s *report.EvalScale) string {
	if s == nil {
		return ""
	}
	switch s.Kind {
	case "percent":
		return fmt.Sprintf("%.0f%%", score*100)
	case "likert":
		v := float64(s.Min) + score*float64(s.Max-s.Min)
		return fmt.Sprintf("%.1f/%d", v, s.Max)
	}
	return ""
}
