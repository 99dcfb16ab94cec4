package judge

import (
	"context"
	"fmt"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk/report"
)

// The agent eval metrics.
const (
	MetricTaskCompletion      = "mcp_task_completion"
	MetricMCPUse              = "mcp_use"
	MetricArgumentCorrectness = "argument_correctness"
	MetricPlanQuality         = "plan_quality"
	MetricMultiTurnMCPUse     = "multi_turn_mcp_use"
	MetricRubric              = "rubric"
)

// metricQuestions are the built-in metrics' questions, in our words. Each
// is judged as one criterion over the agent run.
var metricQuestions = map[string]string{
	MetricTaskCompletion:      "The run accomplished the task the user asked for: the final reply and the tool calls together deliver what was requested.",
	MetricMCPUse:              "The agent called the right tools for the request, with sensible arguments, and used their results rather than guessing.",
	MetricArgumentCorrectness: "Every tool call's arguments are correct and complete for what the user asked: right values, right units and formats, nothing required left out.",
	MetricPlanQuality:         "The sequence of tool calls is a sensible plan: needed calls in a workable order, no redundant repeats, no missing step.",
	MetricMultiTurnMCPUse:     "In this turn the agent called the right tools for the user's message, with sensible arguments, and used their results.",
}

// MetricNames lists the agent eval metrics in the spec's order.
var MetricNames = []string{MetricTaskCompletion, MetricMCPUse, MetricArgumentCorrectness, MetricPlanQuality, MetricMultiTurnMCPUse, MetricRubric}

// MetricSpec is one metric of an agent test's eval block, ready to grade.
type MetricSpec struct {
	// Name is one of MetricNames.
	Name string
	// Threshold is the score needed.
	Threshold float64
	// Rubric is the custom rubric of the rubric metric.
	Rubric *Resolved
	// Model is the judge model (the agent's own model, by the spec); ""
	// for the engine's default.
	Model string
}

// MetricSpecs resolves an agent test's eval block: its metrics in order,
// then its rubric. model is the judge (the agent's model).
func MetricSpecs(suite *config.Suite, ev *config.AgentEval, model string) ([]MetricSpec, error) {
	if ev == nil {
		return nil, nil
	}
	var out []MetricSpec
	for _, m := range ev.Metrics {
		if _, ok := metricQuestions[m.Name]; !ok {
			return nil, fmt.Errorf("%w: unknown agent eval metric %q", ErrRubric, m.Name)
		}
		out = append(out, MetricSpec{Name: m.Name, Threshold: m.Threshold, Model: model})
	}
	if ev.Rubric != nil {
		r, err := Resolve(suite, ev.Rubric, config.DefaultRubricThreshold)
		if err != nil {
			return nil, err
		}
		out = append(out, MetricSpec{Name: MetricRubric, Threshold: r.Threshold, Rubric: r, Model: model})
	}
	return out, nil
}

// Metric grades one agent eval metric over the run in c (c.Trace) and
// returns a report.Eval with Form "metric". multi_turn_mcp_use grades each
// turn of conversation.per_turn and averages; on a single-prompt run it
// returns a *DeferredError. Errors are those of Grade.
func (e *Engine) Metric(ctx context.Context, m MetricSpec, c Candidate) (*report.Eval, error) {
	if m.Name == MetricRubric {
		if m.Rubric == nil {
			return nil, fmt.Errorf("%w: the rubric metric has no rubric", ErrRubric)
		}
		ev, err := e.Grade(ctx, Spec{Rubric: m.Rubric, Model: m.Model}, c)
		if err != nil {
			return nil, err
		}
		ev.Form, ev.Metric = FormMetric, MetricRubric
		return ev, nil
	}
	q, ok := metricQuestions[m.Name]
	if !ok {
		return nil, fmt.Errorf("%w: unknown agent eval metric %q", ErrRubric, m.Name)
	}
	r := &Resolved{Form: FormCriteria, Threshold: m.Threshold, Aggregation: "mean",
		Criteria: []Criterion{{Name: m.Name, Description: q, Weight: 1, Threshold: m.Threshold}}}
	if m.Name == MetricMultiTurnMCPUse {
		return e.multiTurn(ctx, m, r, c)
	}
	ev, err := e.Grade(ctx, Spec{Rubric: r, Model: m.Model}, c)
	if err != nil {
		return nil, err
	}
	ev.Form, ev.Metric, ev.Aggregation = FormMetric, m.Name, ""
	return ev, nil
}

// multiTurn grades each turn's slice as its own candidate and averages.
func (e *Engine) multiTurn(ctx context.Context, m MetricSpec, r *Resolved, c Candidate) (*report.Eval, error) {
	if c.Trace == nil || len(c.Trace.Conversation.PerTurn) == 0 {
		return nil, &DeferredError{Reason: "multi_turn_mcp_use needs a multi-turn run (a turns: block); this run had a single prompt"}
	}
	turns := c.Trace.Conversation.PerTurn
	out := &report.Eval{Form: FormMetric, Metric: m.Name, Candidate: "agent", Threshold: m.Threshold,
		Prompt: c.Prompt, Response: e.mask(c.Trace.FinalResponse)}
	var scores []float64
	var gs []grading
	for i, t := range turns {
		tc := Candidate{Prompt: t.User, TrialIndex: c.TrialIndex,
			Trace: &agent.Trace{ToolCalls: t.ToolCalls, ToolResults: t.ToolResults, FinalResponse: t.FinalResponse}}
		ev, err := e.Grade(ctx, Spec{Rubric: r, Model: m.Model}, tc)
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
		out.JudgeModel = ev.JudgeModel
		sc := ev.Score
		scores = append(scores, sc)
		cr := report.EvalCriterion{Name: fmt.Sprintf("turn %d", i+1), Description: e.mask(t.User), Weight: 1, Score: &sc,
			Threshold: m.Threshold, Passed: meets(sc, m.Threshold, false), Cached: ev.Cached}
		if len(ev.Criteria) > 0 {
			cr.Reason = ev.Criteria[0].Reason
		}
		out.Criteria = append(out.Criteria, cr)
		g := grading{}
		g.calls, g.cachedCalls = ev.Calls, ev.CachedCalls
		if ev.CostUSD != nil {
			g.cost = *ev.CostUSD
		} else {
			g.unpriced = true
		}
		gs = append(gs, g)
	}
	out.Score = mean(scores)
	out.Passed = meets(out.Score, m.Threshold, false)
	verdict := "meets"
	if !out.Passed {
		verdict = "is below"
	}
	out.Reason = fmt.Sprintf("mean over %d turns %.2f %s threshold %.2f", len(turns), out.Score, verdict, m.Threshold)
	finish(out, gs, r)
	return out, nil
}
