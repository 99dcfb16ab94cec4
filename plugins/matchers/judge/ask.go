package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/internal/judgereply"
	"github.com/mcptest/mcptest/sdk"
)

// grading is one judge's answer: the parsed reply, the model that gave
// it, the calls it took and what they cost.
type grading struct {
	reply judgereply.Reply
	// model is the model that answered (the vendor's id when it said).
	model string
	calls int
	// cost is the summed cost of the calls; nil when any was unpriced.
	cost *float64
}

// passes applies the llm-judge rule: the judge's own pass, or a score at
// or above the threshold.
func (g grading) passes(threshold float64) bool {
	return (g.reply.Pass != nil && *g.reply.Pass) || g.reply.Score >= threshold-1e-9
}

// errUnreadable is matched by the error of a judge whose reply stayed
// unreadable after the one repair.
var errUnreadable = errors.New("the judge's reply stayed unreadable after one repair")

// ask has model grade candidate against rubric: one call, and when the
// reply is not the requested JSON one repair turn that says what was
// wrong. The error of a model without a key matches sdk.ErrNoModelKey
// (the item is then deferred); a reply refused twice gives an error
// matching errUnreadable that quotes the start of the last reply (the
// host masks secrets in it).
func ask(ctx context.Context, host sdk.Host, model, rubric, candidate string) (grading, error) {
	req := judgeRequest(model, judgePrompt(rubric, candidate))
	g := grading{model: model}
	costKnown := true
	var total float64
	call := func() (string, error) {
		resp, err := host.Complete(ctx, "", req)
		if err != nil {
			return "", err
		}
		g.calls++
		if resp.Model != "" {
			g.model = resp.Model
		}
		if resp.Usage.CostUSD == nil {
			costKnown = false
		} else {
			total += *resp.Usage.CostUSD
		}
		return resp.Message.Content, nil
	}
	finish := func() {
		if costKnown && g.calls > 0 {
			g.cost = &total
		}
	}
	raw, err := call()
	if err != nil {
		return g, fmt.Errorf("judge %s: %w", modelLabel(model), err)
	}
	reply, perr := judgereply.Parse(raw, judgereply.Options{})
	if perr == nil {
		g.reply = reply
		finish()
		return g, nil
	}
	req.Messages = append(req.Messages,
		sdk.Message{Role: "assistant", Content: raw},
		sdk.Message{Role: "user", Content: judgereply.Repair(perr, judgereply.Options{})})
	raw, err = call()
	finish()
	if err != nil {
		return g, fmt.Errorf("judge %s (repair): %w", modelLabel(model), err)
	}
	reply, perr = judgereply.Parse(raw, judgereply.Options{})
	if perr != nil {
		return g, fmt.Errorf("judge %s: %w: %w", modelLabel(model), errUnreadable, perr)
	}
	g.reply = reply
	return g, nil
}

// modelLabel names a model in messages; "" is the host's default judge.
func modelLabel(model string) string {
	if model == "" {
		return "(default model)"
	}
	return model
}
