package judge

import (
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/sdk"
)

// Explanation is the dry run of a grade (--explain): what would be graded
// and asked, without calling any model.
type Explanation struct {
	// Form is the rubric's form, Ref and Preset its origin; Threshold and
	// Strict its gate.
	Form, Ref, Preset string
	Threshold         float64
	Strict            bool
	// Candidate is "response" or "agent".
	Candidate string
	// Models are the judge models (one, or a panel's); "" when none could
	// be resolved, with ModelNote saying why.
	Models    []string
	ModelNote string
	// Seats is the number of gradings (jury size, panel size, or 1).
	Seats int
	// Calls is the projected number of judge calls: the questions asked
	// per grading (criteria whose when: can hold, the deepest path of a
	// tree, or 1) times Seats; a repair would add one call.
	Calls int
	// CostUSD is the most those calls can cost (prompt estimate plus
	// max_tokens at each model's price); nil when a model is unpriced.
	CostUSD *float64
	// Prompts are the rendered judge prompts of one grading (a tree's
	// every question, since the path is not known before the answers).
	// For an agent candidate not yet run, the candidate block holds a
	// placeholder.
	Prompts []Prompt
}

// agentPlaceholder stands for an agent run's transcript in an explanation
// made before the run.
const agentPlaceholder = "(the agent run: its tool calls, their results and its final reply)"

// Explain describes the grade of c under s without calling a model. The
// prompts are masked, as everything the engine shows.
func (e *Engine) Explain(s Spec, c Candidate) Explanation {
	x := e.explain(s, c)
	for i := range x.Prompts {
		x.Prompts[i].User = e.mask(x.Prompts[i].User)
	}
	return x
}

func (e *Engine) explain(s Spec, c Candidate) Explanation {
	r := s.Rubric
	x := Explanation{Candidate: c.Kind()}
	if r == nil {
		return x
	}
	x.Form, x.Ref, x.Preset, x.Threshold, x.Strict = r.Form, r.Ref, r.Preset, r.Threshold, r.Strict
	text := c.Text()
	if c.Trace == nil && c.Response == "" {
		text, x.Candidate = agentPlaceholder, "agent"
	}
	x.Prompts = prompts(r, c, text)
	perSeat := questions(r, text, c.Trace == nil && c.Response != "")
	seats, _, err := e.seats(s)
	if err != nil {
		x.ModelNote = e.mask(err.Error())
		x.Seats, x.Calls = 1, perSeat
		return x
	}
	x.Seats, x.Calls = len(seats), perSeat*len(seats)
	total, priced := 0.0, true
	seen := map[string]bool{}
	for _, st := range seats {
		if !seen[st.model] {
			x.Models = append(x.Models, st.model)
			seen[st.model] = true
		}
		p, ok := e.price(st.model)
		if !ok {
			priced = false
			continue
		}
		total += seatCost(x.Prompts, perSeat, p, e.opts.MaxTokens)
	}
	if priced {
		x.CostUSD = &total
	}
	return x
}

// ProjectedCalls is the number of judge calls a grade of c under s will
// make without repairs (Explanation.Calls), for the run header.
func (e *Engine) ProjectedCalls(s Spec, c Candidate) int { return e.explain(s, c).Calls }

// seatCost is the most one grading can cost: the largest prompt's
// estimate times the number of questions.
func seatCost(ps []Prompt, n int, p sdk.ModelPrice, maxTokens int) float64 {
	var worst float64
	for _, pr := range ps {
		req := sdk.ChatRequest{System: pr.System, Messages: []sdk.Message{{Role: "user", Content: pr.User}}, MaxTokens: maxTokens}
		worst = max(worst, costcap.Estimate(req, p))
	}
	return worst * float64(n)
}

// questions is the number of judge questions one grading asks: the
// criteria (for a fixed response, only those whose when: holds), the
// longest path of a tree, or 1.
func questions(r *Resolved, text string, fixed bool) int {
	switch r.Form {
	case FormCriteria:
		n := 0
		for i := range r.Criteria {
			if !fixed || r.Criteria[i].When.Holds(text) {
				n++
			}
		}
		return n
	case FormTree:
		return treeDepth(r.Tree, 0)
	}
	return 1
}

func treeDepth(n *config.TreeNode, depth int) int {
	if n == nil || n.Score != nil || depth > maxTreeDepth {
		return 0
	}
	return 1 + max(treeDepth(n.Yes, depth+1), treeDepth(n.No, depth+1))
}

// prompts renders every prompt one grading could send.
func prompts(r *Resolved, c Candidate, text string) []Prompt {
	switch r.Form {
	case FormText:
		return []Prompt{textPrompt(r.Text, c, text)}
	case FormTree:
		var out []Prompt
		var walk func(n *config.TreeNode, depth int)
		walk = func(n *config.TreeNode, depth int) {
			if n == nil || n.Score != nil || depth > maxTreeDepth {
				return
			}
			out = append(out, questionPrompt(n.Ask, c, text))
			walk(n.Yes, depth+1)
			walk(n.No, depth+1)
		}
		walk(r.Tree, 0)
		return out
	}
	var out []Prompt
	for i := range r.Criteria {
		out = append(out, criterionPrompt(&r.Criteria[i], c, text, r.RequireEvidence))
	}
	return out
}
