package eval

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Runner grades the evals of a run. One engine per graded eval (its
// models go through the eval's tape) shares the runner's verdict cache
// and --max-cost budget, so identical requests are answered once and the
// budget holds across the run.
type Runner struct {
	// Source gives the live judge models and their prices (the router).
	Source judge.ModelSource
	// DefaultModel is the judge of evals that name none: --judge-model,
	// else judge.DefaultModel; DefaultModelErr says why there is none.
	DefaultModel    string
	DefaultModelErr error
	// AgentModel drives live evals; "" means each eval's judge model.
	AgentModel string
	// Cache is the verdict cache (nil caches nothing); Cap the --max-cost
	// budget (nil for none).
	Cache *verdictcache.Cache
	Cap   *costcap.Cap
	// Redactor masks secrets in grades and shown prompts.
	Redactor *redact.Redactor
	// RequireModels makes a judge without a key an error rather than a
	// deferral (--require-models).
	RequireModels bool
	// ShowJudging receives the prompts and parsed replies
	// (--show-judging); nil shows nothing.
	ShowJudging io.Writer
}

// Errors of Grade callers test.
var (
	// ErrNoRubric: an eval with neither a rubric nor a scorer.
	ErrNoRubric = errors.New("eval has no rubric")
)

// Spec is the judge spec of one planned eval: its rubric and judge, with
// the matrix cell's model as the judge (a cell's model replaces a panel:
// the models axis compares single judges).
func Spec(t *plan.Test) (judge.Spec, error) {
	e := t.Eval
	if e.Spec.Rubric == nil && e.Scorer != nil {
		// A scorer grades it; the spec only names the judge model a live
		// run would default to.
		s := judge.WithJudge(judge.Spec{}, e.Spec.Judge)
		if e.Cell != nil && e.Cell.Model != "" {
			s.Model = e.Cell.Model
		}
		return s, nil
	}
	if e.Spec.Rubric == nil {
		return judge.Spec{}, fmt.Errorf("%w: %s", ErrNoRubric, e.Spec.Name)
	}
	s, err := judge.SpecOf(t.Suite, e.Spec)
	if err != nil {
		return s, err
	}
	if e.Cell != nil && e.Cell.Model != "" {
		s.Model, s.Panel = e.Cell.Model, nil
	}
	return s, nil
}

// JudgeModel is the judge model id a planned eval uses (the first of a
// panel); "" when it needs the default and there is none.
func (r *Runner) JudgeModel(s judge.Spec) string {
	switch {
	case len(s.Panel) > 0:
		return s.Panel[0]
	case s.Model != "":
		return s.Model
	}
	return r.DefaultModel
}

// AgentModelRef is the model that drives a live eval's agent run.
func (r *Runner) AgentModelRef(s judge.Spec) (config.ModelRef, error) {
	id := r.AgentModel
	if id == "" {
		id = r.JudgeModel(s)
	}
	if id == "" {
		if r.DefaultModelErr != nil {
			return config.ModelRef{}, r.DefaultModelErr
		}
		return config.ModelRef{}, &judge.DeferredError{Reason: "no model for the live run: set --agent-model, " + AgentModelEnv + " or a provider key"}
	}
	return judge.ParseModelRef(id), nil
}

// Grade grades a planned eval's candidate. tape, when set, records the
// judge's calls or answers them from a cassette. The error matches
// judge.ErrDeferred when the judge has no key, judge.ErrMaxCost when the
// budget stopped a call, judge.ErrReply for an unusable reply.
func (r *Runner) Grade(ctx context.Context, t *plan.Test, c judge.Candidate, tape *Tape) (*rpt.Eval, error) {
	spec, err := Spec(t)
	if err != nil {
		return nil, err
	}
	eng := judge.New(judge.Options{
		Models: tapedSource{live: r.Source, tape: tape, test: t.Name}, DefaultModel: r.DefaultModel, DefaultModelErr: r.DefaultModelErr,
		Cache: r.Cache, Cap: r.Cap, Redactor: r.Redactor, ShowJudging: r.ShowJudging,
	})
	ev, err := eng.Grade(ctx, spec, c)
	if ev != nil && t.Eval.Cell != nil {
		ev.Cell = &rpt.EvalCell{Model: t.Eval.Cell.Model, Prompt: t.Eval.Cell.Prompt}
	}
	return ev, err
}
