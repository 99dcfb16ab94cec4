package judge

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk/report"
)

// Rubric forms, as report.Eval.Form names them.
const (
	FormText     = "text"
	FormCriteria = "criteria"
	FormTree     = "tree"
	FormMetric   = "metric"
)

// ErrRubric: a rubric cannot be resolved (unknown ref or preset, bad
// when regex). The loader catches these first; the engine checks again
// because callers may build rubrics by hand.
var ErrRubric = errors.New("invalid rubric")

// Resolved is a rubric ready to grade: references followed, a preset's
// criteria in front of the appended ones, defaults filled in.
type Resolved struct {
	// Form is FormText, FormCriteria or FormTree.
	Form string
	// Text is the free-form rubric of FormText.
	Text string
	// Ref and Preset name where the rubric came from.
	Ref, Preset string
	// Threshold is the score needed; Strict requires 1.
	Threshold float64
	Strict    bool
	// RequireEvidence makes every criterion's judge cite a span.
	RequireEvidence bool
	// Aggregation is mean, min, max or median (FormCriteria only).
	Aggregation string
	// Scale is how the score reads to a person; nil for 0..1.
	Scale *report.EvalScale
	// Criteria are the criteria of FormCriteria, preset first.
	Criteria []Criterion
	// Tree is the decision tree of FormTree.
	Tree *config.TreeNode
}

// Criterion is one criterion of a resolved rubric.
type Criterion struct {
	// Name and Description are the suite's: the judge is asked how far
	// the description holds.
	Name, Description string
	// Weight is its weight in a mean (default 1).
	Weight float64
	// Required: the eval fails unless the criterion holds. Guard: the
	// eval fails if it holds.
	Required, Guard bool
	// Examples are the calibration anchors.
	Examples []config.Example
	// When limits the criterion to candidates it matches; nil for all.
	When *When
	// Threshold is the criterion's own gate, or the rubric's threshold;
	// OwnThreshold says whether the criterion set one (which makes it a
	// gate of its own).
	Threshold    float64
	OwnThreshold bool
}

// Gates reports whether the criterion can fail the eval by itself,
// whatever the aggregate: required, guard, or with its own threshold.
func (c *Criterion) Gates() bool { return c.Required || c.Guard || c.OwnThreshold }

// When is a criterion's deterministic predicate.
type When struct {
	// Contains is a substring; Regex a compiled pattern. One is set.
	Contains string
	Regex    *regexp.Regexp
}

// Holds reports whether the candidate text satisfies the predicate.
func (w *When) Holds(candidate string) bool {
	if w == nil {
		return true
	}
	if w.Regex != nil {
		return w.Regex.MatchString(candidate)
	}
	return strings.Contains(candidate, w.Contains)
}

// String describes the predicate for explanations and reasons.
func (w *When) String() string {
	if w.Regex != nil {
		return fmt.Sprintf("regex %q", w.Regex.String())
	}
	return fmt.Sprintf("contains %q", w.Contains)
}

// Resolve turns a rubric of a suite into a Resolved one. threshold is the
// eval's threshold (the free-form rubric's gate; pass
// config.DefaultRubricThreshold when the caller has none). A structured
// rubric's own threshold wins over the referenced rubric's, which wins
// over the default.
func Resolve(suite *config.Suite, r *config.Rubric, threshold float64) (*Resolved, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: no rubric", ErrRubric)
	}
	if r.Text != "" {
		return &Resolved{Form: FormText, Text: r.Text, Threshold: threshold, Aggregation: ""}, nil
	}
	out := &Resolved{Threshold: config.DefaultRubricThreshold, Aggregation: "mean"}
	base := r
	switch {
	case r.Ref != "":
		var named *config.Rubric
		if suite != nil {
			named = suite.Rubrics[r.Ref]
		}
		if named == nil {
			return nil, fmt.Errorf("%w: %s: rubric %q is not defined under rubrics:", ErrRubric, where(r.Pos), r.Ref)
		}
		out.Ref = r.Ref
		base = named
		if base.Preset != "" {
			if err := addPreset(out, base.Preset); err != nil {
				return nil, err
			}
		}
	case r.Preset != "":
		if err := addPreset(out, r.Preset); err != nil {
			return nil, err
		}
	}
	if err := fill(out, base); err != nil {
		return nil, err
	}
	if r != base { // inline overrides of a reference
		if r.Threshold != nil {
			out.Threshold = *r.Threshold
		}
		if r.Strict != nil {
			out.Strict = *r.Strict
		}
	}
	// A criterion without its own threshold follows the rubric's final
	// one (overrides included).
	for i := range out.Criteria {
		if !out.Criteria[i].OwnThreshold {
			out.Criteria[i].Threshold = out.Threshold
		}
	}
	switch {
	case base.Tree != nil:
		out.Form, out.Tree, out.Aggregation = FormTree, base.Tree, ""
	case len(out.Criteria) > 0:
		out.Form = FormCriteria
	default:
		return nil, fmt.Errorf("%w: %s: the rubric has neither criteria nor a tree", ErrRubric, where(r.Pos))
	}
	return out, nil
}

// fill copies a structured rubric's fields into out.
func fill(out *Resolved, r *config.Rubric) error {
	if r.Threshold != nil {
		out.Threshold = *r.Threshold
	}
	if r.Strict != nil {
		out.Strict = *r.Strict
	}
	out.RequireEvidence = out.RequireEvidence || r.RequireEvidence
	if r.Aggregation != "" {
		out.Aggregation = r.Aggregation
	}
	if r.Scale != nil && r.Scale.Kind != "unit" {
		out.Scale = &report.EvalScale{Kind: r.Scale.Kind, Min: r.Scale.Min, Max: r.Scale.Max}
	}
	for _, c := range r.Criteria {
		rc := Criterion{Name: c.Name, Description: c.Description, Weight: c.Weight, Required: c.Required, Guard: c.Guard}
		if rc.Weight <= 0 {
			rc.Weight = 1
		}
		for _, ex := range c.Examples {
			rc.Examples = append(rc.Examples, *ex)
		}
		if c.Threshold != nil {
			rc.Threshold, rc.OwnThreshold = *c.Threshold, true
		}
		if c.When != nil {
			w := &When{Contains: c.When.Contains}
			if c.When.Regex != "" {
				re, err := regexp.Compile(c.When.Regex)
				if err != nil {
					return fmt.Errorf("%w: %s: criterion %q: when.regex: %w", ErrRubric, where(c.Pos), c.Name, err)
				}
				w.Regex = re
			}
			rc.When = w
		}
		out.Criteria = append(out.Criteria, rc)
	}
	return nil
}

func where(p config.Pos) string {
	if p.File == "" {
		return "rubric"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}
