package scorer

import "github.com/mcptest/mcptest/core/config"

// InputFor is the grading of eval ev of suite s with candidate output:
// the prompt as input, the rubric as criteria (see Criteria), and the
// eval's name, suite file and server as metadata. candidate says what
// output is ("response" or "agent"). Callers may add metadata (a matrix
// cell, a trial) before scoring.
func InputFor(s *config.Suite, ev *config.EvalTest, output, candidate string) Input {
	threshold := ev.Threshold
	if ev.Rubric != nil && ev.Rubric.Threshold != nil {
		threshold = *ev.Rubric.Threshold
	}
	return Input{
		Input:     ev.Prompt,
		Output:    output,
		Criteria:  Criteria(s, ev.Rubric),
		Metadata:  map[string]any{"eval": ev.Name, "suite": ev.Pos.File, "server": ev.Server},
		Candidate: candidate,
		Threshold: threshold,
	}
}

// Criteria is a rubric as a scorer receives it: the free-form text as a
// string; weighted criteria as a list of {name, description, weight,
// required, guard}; a decision tree as nested {ask, yes, no} and
// {score, reason} nodes; a preset as {preset, criteria} (the appended
// criteria); a reference as the rubric it names. nil for no rubric.
func Criteria(s *config.Suite, r *config.Rubric) any { return criteria(s, r, 0) }

// maxRefDepth bounds reference chains; the loader allows none deeper than
// one, this only keeps a hand-built suite from looping.
const maxRefDepth = 4

func criteria(s *config.Suite, r *config.Rubric, depth int) any {
	if r == nil {
		return nil
	}
	switch {
	case r.Ref != "":
		if s != nil && s.Rubrics[r.Ref] != nil && depth < maxRefDepth {
			return criteria(s, s.Rubrics[r.Ref], depth+1)
		}
		return map[string]any{"ref": r.Ref}
	case r.Preset != "":
		return map[string]any{"preset": r.Preset, "criteria": criteriaList(r.Criteria)}
	case r.Tree != nil:
		return treeOf(r.Tree)
	case len(r.Criteria) > 0:
		return criteriaList(r.Criteria)
	}
	return r.Text
}

// criteriaList renders weighted criteria.
func criteriaList(cs []*config.Criterion) []map[string]any {
	out := make([]map[string]any, 0, len(cs))
	for _, c := range cs {
		m := map[string]any{"name": c.Name, "description": c.Description, "weight": c.Weight}
		if c.Required {
			m["required"] = true
		}
		if c.Guard {
			m["guard"] = true
		}
		out = append(out, m)
	}
	return out
}

// treeOf renders a decision-tree node.
func treeOf(n *config.TreeNode) map[string]any {
	if n == nil {
		return nil
	}
	if n.Ask == "" {
		m := map[string]any{"reason": n.Reason}
		if n.Score != nil {
			m["score"] = *n.Score
		}
		return m
	}
	return map[string]any{"ask": n.Ask, "yes": treeOf(n.Yes), "no": treeOf(n.No)}
}
