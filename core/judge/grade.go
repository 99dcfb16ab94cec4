package judge

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/internal/judgereply"
	"github.com/mcptest/mcptest/sdk/report"
)

// maxShown bounds the prompt and response copied into a report.
const maxShown = 4 << 10

// Grade grades candidate c against the spec's rubric and returns its
// report.Eval. Errors: a *DeferredError (ErrDeferred) when a judge model
// has no key, before any call; ErrMaxCost or ErrUnpriced when the cap
// stopped a call; a *ReplyError (ErrReply) when a single judge's reply
// stayed unusable, or when every juror of a jury or panel abstained; the
// model's error otherwise. A criteria rubric whose every criterion was
// skipped is a failed Eval with AllSkippedReason, never a pass.
func (e *Engine) Grade(ctx context.Context, s Spec, c Candidate) (*report.Eval, error) {
	if s.Rubric == nil {
		return nil, fmt.Errorf("%w: no rubric", ErrRubric)
	}
	seats, kind, err := e.seats(s)
	if err != nil {
		return nil, err
	}
	judges, err := e.resolveModels(seats)
	if err != nil {
		return nil, err
	}
	text := c.Text()
	ev := e.newEval(s, c, seats)
	if kind == "" {
		g, err := e.gradeOnce(ctx, s.Rubric, seats[0], judges[0], c, text)
		if err != nil {
			return nil, err
		}
		ev.Criteria, ev.Path = g.criteria, g.path
		ev.Score, ev.Passed, ev.Reason = g.score, g.passed, g.reason
		finish(ev, []grading{g}, s.Rubric)
		return ev, nil
	}
	var gs []grading
	var all []grading
	for i, st := range seats {
		g, err := e.gradeOnce(ctx, s.Rubric, st, judges[i], c, text)
		all = append(all, g)
		j := report.EvalJuror{Index: st.index, Model: st.model}
		var re *ReplyError
		switch {
		case errors.As(err, &re):
			j.Abstained, j.Error = true, re.Error()
		case err != nil:
			return nil, err
		default:
			sc := g.score
			j.Score, j.Passed, j.Reason = &sc, g.passed, g.reason
			j.Cached = g.calls > 0 && g.cachedCalls == g.calls
			gs = append(gs, g)
		}
		if !g.unpriced {
			cost := g.cost
			j.CostUSD = &cost
		}
		ev.Jurors = append(ev.Jurors, j)
	}
	if len(gs) == 0 {
		return nil, &ReplyError{Model: seats[0].model, Label: fmt.Sprintf("every one of the %d %s seats", len(seats), kind),
			Err: &judgereply.Error{Why: "every juror abstained (no usable reply after one repair)"}}
	}
	e.combineSeats(ev, s, kind, gs)
	finish(ev, all, s.Rubric)
	return ev, nil
}

// resolveModels gets every seat's model before any call, so a missing key
// defers the whole grade instead of failing half-way.
func (e *Engine) resolveModels(seats []seat) ([]Model, error) {
	if e.opts.Models == nil {
		return nil, &DeferredError{Reason: "no judge model source"}
	}
	out := make([]Model, len(seats))
	byID := map[string]Model{}
	for i, st := range seats {
		if m, ok := byID[st.model]; ok {
			out[i] = m
			continue
		}
		m, err := e.opts.Models.Model(st.model)
		if err != nil {
			if isNoKey(err) {
				return nil, &DeferredError{Reason: e.mask(err.Error()), Err: err}
			}
			return nil, err
		}
		byID[st.model], out[i] = m, m
	}
	return out, nil
}

// newEval starts the report of a grade.
func (e *Engine) newEval(s Spec, c Candidate, seats []seat) *report.Eval {
	r := s.Rubric
	ev := &report.Eval{Form: r.Form, Preset: r.Preset, Ref: r.Ref, Candidate: c.Kind(),
		Prompt: judgereply.Excerpt(e.mask(c.Prompt), maxShown), Response: judgereply.Excerpt(e.mask(c.Final()), maxShown),
		JudgeModel: seats[0].model, Threshold: r.Threshold, Strict: r.Strict, Aggregation: r.Aggregation, Scale: r.Scale}
	if len(s.Panel) > 0 {
		ev.JudgeModel = ""
	}
	return ev
}

// finish sums calls and costs over every grading (abstained ones too:
// their calls were made) and sets the display.
func finish(ev *report.Eval, gs []grading, r *Resolved) {
	unpriced := false
	var cost float64
	for _, g := range gs {
		ev.Calls += g.calls
		ev.CachedCalls += g.cachedCalls
		cost += g.cost
		unpriced = unpriced || g.unpriced
	}
	ev.Cached = ev.Calls > 0 && ev.CachedCalls == ev.Calls
	if !unpriced {
		ev.CostUSD = &cost
	}
	ev.Display = Display(ev.Score, r.Scale)
}
