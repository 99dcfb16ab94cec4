package run

import (
	"context"
	"errors"
	"time"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/eval"
	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// runEval grades one planned eval (a cell of its matrix): the candidate
// is its fixed response, or a live agent run against its server graded
// as a whole; the judge (core/judge through core/eval) grades it. Passed
// or failed by the grade; deferred when a model has no key (an error with
// --require-models); errored when the run could not grade it (a budget
// that stopped the judge, a reply that stayed unusable, a server that
// did not start).
func (r *runner) runEval(ctx context.Context, t *plan.Test) (res rpt.Test) {
	res = testHeader(t)
	start := time.Now()
	defer func() { res.DurationMS = ms(time.Since(start)) }()
	ev := r.opts.Evals
	if ev == nil {
		return r.evalError(res, "eval", errors.New("this run has no judge (evals run under mcptest eval)"))
	}
	spec, err := eval.Spec(t)
	if err != nil && t.Eval.Scorer == nil {
		return r.evalError(res, "rubric", err)
	}
	prompt := t.Eval.Prompt()
	cand := judge.Candidate{Prompt: prompt, TrialIndex: trialIndex(t)}
	var agentCost *float64
	if resp := t.Eval.Spec.Response; resp != nil {
		cand.Response = *resp
	} else {
		ref, err := ev.AgentModelRef(spec)
		if err != nil {
			return r.evalModelError(res, err)
		}
		at := evalAgentTest(t, ref, prompt)
		trace, ar, aspec, err := r.driveAgent(ctx, at)
		var fail *agentFailure
		if errors.As(err, &fail) {
			if fail.model {
				return r.evalModelError(res, fail.err)
			}
			return r.evalError(res, "server_start", fail.err)
		}
		res.Agent = r.agentReport(trace, ar, aspec)
		if err != nil && !errors.Is(err, agent.ErrCap) {
			return r.evalError(res, agentErrorKind(err), err)
		}
		// A run stopped by a cap is still graded: the transcript shows
		// where it stopped, and the rubric decides what that is worth.
		cand.Trace = eval.CanonicalTrace(trace)
		if res.Agent != nil && res.Agent.CostUSDCents != nil {
			usd := *res.Agent.CostUSDCents / 100
			agentCost = &usd
		}
	}
	var grade *rpt.Eval
	if t.Eval.Scorer != nil {
		grade, err = ev.Score(ctx, r.opts.Host, t, cand)
	} else {
		tape, terr := r.judgeTape(t.Suite, t.Eval.Server)
		if terr != nil {
			return r.evalError(res, "cassette", terr)
		}
		grade, err = ev.Grade(ctx, t, cand, tape)
	}
	if grade != nil {
		addCost(grade, agentCost)
		res.Eval = grade
		res.Score, res.Threshold = &grade.Score, &grade.Threshold
	}
	switch {
	case err == nil && grade != nil:
		res.Status = rpt.StatusFailed
		if grade.Passed {
			res.Status = rpt.StatusPassed
		}
		return res
	case errors.Is(err, judge.ErrDeferred) || errors.Is(err, models.ErrNoKey):
		return r.evalModelError(res, err)
	case errors.Is(err, judge.ErrMaxCost):
		return r.evalError(res, "max_cost", err)
	case errors.Is(err, judge.ErrReply):
		return r.evalError(res, "judge_reply", err)
	case t.Eval.Scorer != nil:
		return r.evalError(res, "scorer", err)
	case err == nil:
		err = errors.New("the judge returned no grade")
	}
	return r.evalError(res, "judge", err)
}

// evalAgentTest is the agent test a live eval runs: its prompt against its
// server, driven by ref, under the eval's name (the model tape's key).
func evalAgentTest(t *plan.Test, ref config.ModelRef, prompt string) *plan.Test {
	spec := &config.AgentTest{Name: t.Name, Prompt: prompt, Servers: []string{t.Server.Name}, Models: []config.ModelRef{ref}, Pos: t.Pos}
	at := *t
	at.Agent = &plan.Agent{Spec: spec, Model: ref, Servers: []*config.Server{t.Server}}
	return &at
}

// evalModelError is a model without a key (deferred, or an error with
// --require-models) or one that cannot be had (errored).
func (r *runner) evalModelError(res rpt.Test, err error) rpt.Test {
	if errors.Is(err, models.ErrNoKey) || errors.Is(err, judge.ErrDeferred) {
		return r.deferred(res, err)
	}
	return r.evalError(res, "model", err)
}

func (r *runner) evalError(res rpt.Test, kind string, err error) rpt.Test {
	res.Status = rpt.StatusErrored
	res.Error = &rpt.Error{Kind: kind, Message: r.opts.Redact.String(err.Error())}
	return res
}

// addCost adds what producing the candidate cost to a grade's cost; an
// unpriced grade stays unpriced only when the run was free as well.
func addCost(g *rpt.Eval, usd *float64) {
	if usd == nil {
		return
	}
	total := *usd
	if g.CostUSD != nil {
		total += *g.CostUSD
	}
	g.CostUSD = &total
}

// trialIndex is the 0-based trial of a test run several times.
func trialIndex(t *plan.Test) int {
	if t.Trial > 0 {
		return t.Trial - 1
	}
	return 0
}
