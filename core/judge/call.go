package judge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/internal/judgereply"
	"github.com/mcptest/mcptest/sdk"
)

// answer is the outcome of asking one judge one question.
type answer struct {
	reply judgereply.Reply
	// calls counts model calls (2 after a repair, 1 from the cache).
	calls  int
	cached bool
	cost   float64
	// priced is false when a call's cost is unknown.
	priced bool
}

// ask sends one prompt to one judge, through the cache and the cap, with
// one repair for a reply that is not the requested JSON. The reply's
// strings come back masked.
func (e *Engine) ask(ctx context.Context, model string, m Model, p Prompt, juror, trial int) (answer, error) {
	key := verdictcache.Key{Model: model, System: p.System, Prompt: p.User, Juror: juror, Trial: trial}
	r, hit, done, err := e.opts.Cache.Begin(ctx, key)
	if err != nil {
		return answer{priced: true}, err
	}
	if hit {
		e.showReply(model, juror, p.Label, r, true)
		return answer{reply: r, calls: 1, cached: true, priced: true}, nil
	}
	a, err := e.askModel(ctx, model, m, p, juror)
	if err != nil {
		done(nil)
		return a, err
	}
	done(&a.reply)
	return a, nil
}

// askModel is ask without the cache.
func (e *Engine) askModel(ctx context.Context, model string, m Model, p Prompt, juror int) (answer, error) {
	opts := judgereply.Options{RequireEvidence: p.Evidence}
	req := sdk.ChatRequest{System: p.System, Messages: []sdk.Message{{Role: "user", Content: p.User}},
		MaxTokens: e.opts.MaxTokens, Temperature: temperature(model)}
	a := answer{priced: true}
	for attempt := 0; ; attempt++ {
		e.showPrompt(model, juror, p.Label, req, attempt)
		raw, cut, err := e.complete(ctx, model, m, req, &a)
		if err != nil {
			return a, err
		}
		r, perr := judgereply.Parse(raw, opts)
		if perr != nil && cut {
			var pe *judgereply.Error
			if errors.As(perr, &pe) {
				// Say why, so the repair asks for less rather than the same.
				pe.Why += " (the reply was cut at the token limit: give only the JSON object, with a short reason)"
			}
		}
		if perr == nil {
			r = e.maskReply(r)
			e.showReply(model, juror, p.Label, r, false)
			a.reply = r
			return a, nil
		}
		var pe *judgereply.Error
		errors.As(perr, &pe)
		pe = pe.Masked(e.mask)
		e.showf("judge %s juror %d, %s: unusable reply: %s\n", model, juror, p.Label, pe.Why)
		if attempt == 1 {
			return a, &ReplyError{Model: model, Label: p.Label, Err: pe}
		}
		req.Messages = append(req.Messages,
			sdk.Message{Role: "assistant", Content: raw},
			sdk.Message{Role: "user", Content: judgereply.Repair(perr, opts)})
	}
}

// complete makes one model call under the cap and counts its cost.
// cut is true when the model stopped at the completion budget.
func (e *Engine) complete(ctx context.Context, model string, m Model, req sdk.ChatRequest, a *answer) (text string, cut bool, err error) {
	price, priced := e.price(model)
	var estimate float64
	if priced {
		estimate = costcap.Estimate(req, price)
	}
	res, err := e.opts.Cap.Reserve(model, estimate, priced)
	if err != nil {
		return "", false, err
	}
	if err := ctx.Err(); err != nil {
		res.Release()
		return "", false, err
	}
	cctx, cancel := context.WithTimeout(ctx, e.opts.CallTimeout)
	resp, err := m.Complete(cctx, req)
	cancel()
	a.calls++
	if err != nil {
		res.Settle(nil)
		return "", false, fmt.Errorf("judge model %s: %w", model, err)
	}
	cost := resp.Usage.CostUSD
	if cost == nil && priced {
		c := price.Cost(resp.Usage)
		cost = &c
	}
	res.Settle(cost)
	if cost == nil {
		a.priced = false
	} else {
		a.cost += *cost
	}
	return textOf(resp.Message), resp.StopReason == sdk.StopMaxTokens, nil
}

// temperature is 0 for reproducible verdicts, except for OpenAI's
// reasoning models (o1, o3, gpt-5...), whose API refuses any temperature
// but its default.
func temperature(model string) *float64 {
	id := ParseModelRef(model).ID
	if strings.HasPrefix(id, "gpt-5") || (len(id) >= 2 && id[0] == 'o' && id[1] >= '0' && id[1] <= '9') {
		return nil
	}
	zero := 0.0
	return &zero
}

// textOf is a reply's text, whether in Content or in text parts.
func textOf(m sdk.Message) string {
	if len(m.Parts) == 0 {
		return m.Content
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type == sdk.PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func (e *Engine) price(model string) (sdk.ModelPrice, bool) {
	if e.opts.Models == nil {
		return sdk.ModelPrice{}, false
	}
	return e.opts.Models.Price(model)
}

func (e *Engine) maskReply(r judgereply.Reply) judgereply.Reply {
	r.Reason, r.Evidence = e.mask(r.Reason), e.mask(r.Evidence)
	return r
}
