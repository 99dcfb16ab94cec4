package eval

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// MetricMatcher prefixes the matcher name of a judged metric's report row:
// "eval.mcp_use", "eval.rubric".
const MetricMatcher = "eval."

// ModelID writes a model reference the way judge models are named:
// "ENTRY:ID" for a providers: entry, the bare id otherwise.
func ModelID(ref config.ModelRef) string {
	if ref.Provider != "" {
		return ref.Provider + ":" + ref.ID
	}
	return ref.ID
}

// Metrics grades the eval: block of an agent test over its run, one report
// row each (first is the index of the first row), in declaration order,
// the custom rubric last. The judge is the agent's own model; the grades
// go one after another, so a scripted provider sees them in order. A row
// is passed or failed by its threshold, errored when the run could not
// grade it, and deferred when its judge has no key or the metric does not
// apply (multi_turn_mcp_use on a single-prompt run): Status says which,
// and Message why.
func (r *Runner) Metrics(ctx context.Context, t *plan.Test, tr *agent.Trace, tape *Tape, first int) []rpt.Assertion {
	a := t.Agent
	specs, err := judge.MetricSpecs(t.Suite, a.Spec.Eval, ModelID(a.Model))
	if err != nil {
		return []rpt.Assertion{{Index: first, Target: "eval", Matcher: MetricMatcher + "rubric", Status: rpt.StatusErrored, Message: r.mask(err.Error())}}
	}
	eng := judge.New(judge.Options{
		Models: tapedSource{live: r.Source, tape: tape, test: t.Name}, DefaultModel: r.DefaultModel, DefaultModelErr: r.DefaultModelErr,
		Cache: r.Cache, Cap: r.Cap, Redactor: r.Redactor, ShowJudging: r.ShowJudging,
	})
	c := judge.Candidate{Prompt: a.Spec.Prompt, Trace: CanonicalTrace(tr), TrialIndex: max(t.Trial-1, 0)}
	out := make([]rpt.Assertion, 0, len(specs))
	for i, m := range specs {
		row := rpt.Assertion{Index: first + i, Target: "eval", Matcher: MetricMatcher + m.Name}
		th := m.Threshold
		row.Threshold = &th
		ev, err := eng.Metric(ctx, m, c)
		switch {
		case err == nil && ev != nil:
			row.Eval, row.Score = ev, &ev.Score
			row.Status = rpt.StatusFailed
			if ev.Passed {
				row.Status = rpt.StatusPassed
			} else {
				row.Failure, _ = json.Marshal(map[string]any{"expected": ">= threshold", "actual": ev.Score, "note": ev.Reason})
			}
			row.Message = ev.Reason
		case errors.Is(err, models.ErrNoKey) && r.RequireModels:
			row.Status, row.Message = rpt.StatusErrored, r.mask(err.Error())+" (--require-models / MCPTEST_REQUIRE_MODELS=1 make a missing key an error)"
		case errors.Is(err, judge.ErrDeferred) || errors.Is(err, models.ErrNoKey):
			row.Status, row.Message = rpt.StatusDeferred, r.mask(err.Error())
		default:
			if err == nil {
				err = errors.New("the judge returned no grade")
			}
			row.Status, row.Message = rpt.StatusErrored, r.mask(err.Error())
		}
		out = append(out, row)
	}
	return out
}
