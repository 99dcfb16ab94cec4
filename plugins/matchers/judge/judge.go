package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// maxEvalResponse bounds the graded text a result's Eval repeats.
const maxEvalResponse = 4 << 10

// judgeMatcher serves llm-judge and the named matchers (factuality,
// answer-relevance, context-faithfulness), which are llm-judge with a
// fixed rubric.
type judgeMatcher struct{}

// CheckArgument refuses a bad argument before the run starts.
func (judgeMatcher) CheckArgument(key string, raw json.RawMessage) error {
	_, _, err := parseFor(key, raw)
	return err
}

// parseFor reads the argument of key as an llm-judge argument.
func parseFor(key string, raw json.RawMessage) (judgeArg, float64, error) {
	if key == keyJudge {
		return parseJudge(raw)
	}
	return parseNamed(key, raw)
}

// Match has one judge grade the value.
func (judgeMatcher) Match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	arg, threshold, err := parseFor(in.Key, in.Argument)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	candidate := candidateText(in.Actual)
	g, err := ask(ctx, in.Host, arg.Model, arg.Rubric, candidate)
	if isNoKey(err) {
		return sdk.Defer(deferReason(in.Key, err)), nil
	}
	if err != nil {
		// A judge that could not grade must not pass or fail the
		// assertion.
		return sdk.MatchResult{}, fmt.Errorf("%s: %w", in.Key, err)
	}
	score := g.reply.Score
	pass := g.passes(threshold)
	ev := &report.Eval{
		Form: "text", Candidate: "value", Response: bounded(candidate, maxEvalResponse), JudgeModel: g.model,
		Score: score, Threshold: threshold, Passed: pass, Reason: g.reply.Reason, Calls: g.calls, CostUSD: g.cost,
	}
	if in.Key != keyJudge {
		ev.Preset = in.Key
	}
	res := sdk.MatchResult{Pass: pass, Score: &score, Eval: ev}
	if !pass {
		res.Failure = &sdk.Failure{
			Expected: sdk.JSON(fmt.Sprintf("a judge score of at least %s", fmtScore(threshold))),
			Actual:   in.Actual,
			Note:     fmt.Sprintf("judge %s scored %s (threshold %s): %s", g.model, fmtScore(score), fmtScore(threshold), g.reply.Reason),
			Extra:    map[string]any{"score": score, "threshold": threshold, "reason": g.reply.Reason, "judge": g.model},
		}
	}
	return res, nil
}

// fmtScore writes a score with at most three decimals.
func fmtScore(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

// bounded keeps the first n bytes of s on a rune boundary, marking a cut.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// isNoKey reports whether err is the host's refusal for want of a key.
func isNoKey(err error) bool { return errors.Is(err, sdk.ErrNoModelKey) }

// deferReason is the note of an item deferred for want of a key: the
// matcher and the host's own message (which names the model and the
// variable), without the layers of wrapping in between.
func deferReason(key string, err error) string {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, sdk.ErrNoModelKey.Error()+": "); ok && after != "" {
		msg = after
	}
	return key + ": " + msg
}
