package eval

import (
	"context"
	"fmt"

	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/scorer"
	"github.com/mcptest/mcptest/internal/judgereply"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Score grades a planned eval that names a scorer: the candidate's final
// reply goes to the scorer's plugin (through host) instead of a judge.
// The verdict cache answers a grading it has seen (keyed on the scorer's
// name and configuration and the envelope, so judges and scorers share
// it without colliding), and the --max-cost budget refuses the call once
// it is spent; the scorer's reported cost is added to it afterwards
// (cost_usd null adds nothing).
func (r *Runner) Score(ctx context.Context, host *plugin.Host, t *plan.Test, c judge.Candidate) (*rpt.Eval, error) {
	sc := t.Eval.Scorer
	in := scorer.InputFor(t.Suite, t.Eval.Spec, c.Final(), c.Kind())
	in.Input = t.Eval.Prompt()
	if cell := t.Eval.Cell; cell != nil {
		in.Metadata["cell"] = map[string]string{"model": cell.Model, "prompt": cell.Prompt}
	}
	raw, err := sc.CacheKey(in)
	if err != nil {
		return nil, err
	}
	key := verdictcache.Key{Scorer: sc.Name(), Prompt: string(raw), Trial: c.TrialIndex}
	if rep, ok := r.Cache.Get(key); ok {
		ev := r.scorerEval(sc, in, rep)
		r.showScore(sc, ev, true)
		return ev, nil
	}
	res, err := r.Cap.Reserve("scorer "+sc.Name(), 0, true)
	if err != nil {
		return nil, err
	}
	ev, err := sc.Score(ctx, host, in)
	if err != nil {
		res.Release()
		return nil, err
	}
	res.Settle(ev.CostUSD)
	passed := ev.Passed
	// A folder that cannot be written costs only the reuse.
	_ = r.Cache.Put(key, judgereply.Reply{Score: ev.Score, Pass: &passed, Reason: ev.Reason})
	r.showScore(sc, ev, false)
	return ev, nil
}

// scorerEval is the grade of a cached scorer verdict: no call made, no
// cost.
func (r *Runner) scorerEval(sc *scorer.Scorer, in scorer.Input, rep judgereply.Reply) *rpt.Eval {
	ev := &rpt.Eval{Form: "scorer", Scorer: sc.Name(), Candidate: in.Candidate, Score: rep.Score, Threshold: in.Threshold,
		Passed: rep.Pass != nil && *rep.Pass, Reason: r.mask(rep.Reason), Calls: 1, CachedCalls: 1, Cached: true}
	if p, ok := in.Input.(string); ok {
		ev.Prompt = r.mask(p)
	}
	if o, ok := in.Output.(string); ok {
		ev.Response = r.mask(o)
	}
	zero := 0.0
	ev.CostUSD = &zero
	return ev
}

// showScore prints a scorer's verdict under --show-judging.
func (r *Runner) showScore(sc *scorer.Scorer, ev *rpt.Eval, cached bool) {
	if r.ShowJudging == nil {
		return
	}
	from := ""
	if cached {
		from = " (verdict cache)"
	}
	fmt.Fprintf(r.ShowJudging, "scorer %s%s: score %.2f, passed %v, reason: %s\n", sc.Name(), from, ev.Score, ev.Passed, r.mask(ev.Reason))
}
