package judge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/internal/judgereply"
	"github.com/mcptest/mcptest/sdk/report"
)

// TreeYes is the judge score at or above which a tree question's answer
// is yes.
const TreeYes = 0.5

// grading is one judge's grade of a whole rubric.
type grading struct {
	score    float64
	passed   bool
	reason   string
	criteria []report.EvalCriterion
	path     []report.EvalStep
	// raw holds the judge scores the grading was made of, by question
	// (criterion name or tree question), for the jury's alpha.
	raw map[string]float64
	answers
}

// answers sums the calls and costs of several asks.
type answers struct {
	calls, cachedCalls int
	cost               float64
	unpriced           bool
}

func (s *answers) add(a answer) {
	s.calls += a.calls
	if a.cached {
		s.cachedCalls += a.calls
	}
	s.cost += a.cost
	s.unpriced = s.unpriced || !a.priced
}

// gradeOnce grades the candidate against the rubric with one judge.
func (e *Engine) gradeOnce(ctx context.Context, r *Resolved, st seat, m Model, c Candidate, text string) (grading, error) {
	switch r.Form {
	case FormText:
		return e.gradeText(ctx, r, st, m, c, text)
	case FormTree:
		return e.gradeTree(ctx, r, st, m, c, text)
	default:
		return e.gradeCriteria(ctx, r, st, m, c, text)
	}
}

func (e *Engine) gradeText(ctx context.Context, r *Resolved, st seat, m Model, c Candidate, text string) (grading, error) {
	var g grading
	a, err := e.ask(ctx, st.model, m, textPrompt(r.Text, c, text), st.index, c.TrialIndex)
	g.add(a)
	if err != nil {
		return g, err
	}
	g.score, g.reason = a.reply.Score, a.reply.Reason
	g.passed = meets(g.score, r.Threshold, r.Strict)
	g.raw = map[string]float64{"rubric": a.reply.Score}
	return g, nil
}

func (e *Engine) gradeTree(ctx context.Context, r *Resolved, st seat, m Model, c Candidate, text string) (grading, error) {
	g := grading{raw: map[string]float64{}}
	node := r.Tree
	for depth := 0; node != nil && node.Score == nil; depth++ {
		if depth > maxTreeDepth || node.Ask == "" {
			return g, fmt.Errorf("%w: the decision tree has a node with neither ask nor score", ErrRubric)
		}
		a, err := e.ask(ctx, st.model, m, questionPrompt(node.Ask, c, text), st.index, c.TrialIndex)
		g.add(a)
		if err != nil {
			return g, err
		}
		js := a.reply.Score
		step := report.EvalStep{Ask: node.Ask, Answer: "no", JudgeScore: &js, Reason: a.reply.Reason, Cached: a.cached}
		g.raw[node.Ask] = js
		if js >= TreeYes {
			step.Answer, node = "yes", node.Yes
		} else {
			node = node.No
		}
		g.path = append(g.path, step)
	}
	if node == nil {
		return g, fmt.Errorf("%w: the decision tree has a branch that ends without a score", ErrRubric)
	}
	leaf := *node.Score
	g.path = append(g.path, report.EvalStep{Score: &leaf, Reason: node.Reason})
	g.score = leaf
	g.passed = meets(leaf, r.Threshold, r.Strict)
	g.reason = pathText(g.path)
	return g, nil
}

// maxTreeDepth bounds a walk; the loader's trees are finite, this guards
// hand-built ones.
const maxTreeDepth = 64

// pathText is the walk as one line: "ASK -> yes, ASK -> no: leaf reason".
func pathText(path []report.EvalStep) string {
	var parts []string
	var leaf string
	for _, s := range path {
		if s.Ask != "" {
			parts = append(parts, s.Ask+" -> "+s.Answer)
		} else {
			leaf = s.Reason
		}
	}
	out := "path: " + strings.Join(parts, ", ")
	if leaf != "" {
		out += "; " + leaf
	}
	return out
}

func (e *Engine) gradeCriteria(ctx context.Context, r *Resolved, st seat, m Model, c Candidate, text string) (grading, error) {
	g := grading{raw: map[string]float64{}}
	masked := ""
	for i := range r.Criteria {
		cr := &r.Criteria[i]
		ec := report.EvalCriterion{Name: cr.Name, Description: cr.Description, Weight: cr.Weight,
			Threshold: cr.Threshold, Required: cr.Required, Guard: cr.Guard}
		if !cr.When.Holds(text) {
			ec.Skipped = true
			ec.Reason = "skipped: its when predicate (" + cr.When.String() + ") does not hold"
			g.criteria = append(g.criteria, ec)
			continue
		}
		a, err := e.ask(ctx, st.model, m, criterionPrompt(cr, c, text, r.RequireEvidence), st.index, c.TrialIndex)
		g.add(a)
		if err != nil {
			return g, err
		}
		score := a.reply.Score
		g.raw[cr.Name] = score
		ec.Reason, ec.Cached, ec.Evidence = a.reply.Reason, a.cached, a.reply.Evidence
		ec.Passed = criterionPasses(cr, score)
		if r.RequireEvidence {
			if masked == "" {
				masked = e.mask(text)
			}
			ec.EvidenceFound = judgereply.EvidenceFound(text, ec.Evidence) || judgereply.EvidenceFound(masked, ec.Evidence)
			// A guard that does not hold has nothing to cite.
			if !ec.EvidenceFound && !(cr.Guard && ec.Passed) {
				if strings.TrimSpace(ec.Evidence) == "" {
					ec.Reason = "no evidence cited, so the criterion scores 0 (judge said: " + ec.Reason + ")"
				} else {
					ec.Reason = "the cited evidence does not occur verbatim in the candidate, so the criterion scores 0 (judge said: " + ec.Reason + ")"
				}
				if !cr.Guard {
					score = 0
				}
				ec.Passed = false
			}
		}
		ec.Score = &score
		g.criteria = append(g.criteria, ec)
	}
	g.score, g.passed, g.reason = combine(r, g.criteria)
	return g, nil
}

// criterionPasses is a criterion's own verdict: its score meets its
// threshold, or for a guard (which must not hold) the complement does.
func criterionPasses(cr *Criterion, score float64) bool {
	if cr.Guard {
		return meets(1-score, cr.Threshold, false)
	}
	return meets(score, cr.Threshold, false)
}

// epsilon absorbs float noise in threshold comparisons (0.1+0.2 style).
const epsilon = 1e-9

// meets reports whether score passes threshold (1 when strict).
func meets(score, threshold float64, strict bool) bool {
	if strict {
		return score >= 1-epsilon
	}
	return score >= threshold-epsilon
}
