package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// similarMatcher serves similar: the cosine similarity of the embeddings
// of the reference text and the value, through the host's Embed (so the
// provider plugin of the model does the call). A family without an
// embeddings API (Anthropic) is refused by its provider with a message
// saying so, which errors the item.
type similarMatcher struct{}

// CheckArgument refuses a bad argument before the run starts.
func (similarMatcher) CheckArgument(_ string, raw json.RawMessage) error {
	_, _, _, err := parseSimilar(raw)
	return err
}

// Match embeds both texts and compares them.
func (similarMatcher) Match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	ref, threshold, model, err := parseSimilar(in.Argument)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	candidate := candidateText(in.Actual)
	resp, err := in.Host.Embed(ctx, "", sdk.EmbedRequest{Model: model, Inputs: []string{ref, candidate}})
	if isNoKey(err) {
		return sdk.Defer(deferReason(keySimilar, err)), nil
	}
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("%s: embed with %s: %w", keySimilar, model, err)
	}
	if len(resp.Vectors) != 2 {
		return sdk.MatchResult{}, fmt.Errorf("%s: the provider returned %d embeddings for 2 texts", keySimilar, len(resp.Vectors))
	}
	cos, err := cosine(resp.Vectors[0], resp.Vectors[1])
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("%s: %s: %w", keySimilar, model, err)
	}
	// Cosine runs from -1 to 1; as a score, opposite and unrelated
	// meanings are both 0.
	score := max(cos, 0)
	pass := cos >= threshold-1e-9
	// The grade keeps the call's cost, so the embedding's spending
	// reaches the assertion and the report's costs like a judge's.
	ev := &report.Eval{
		Form: "text", Preset: keySimilar, Candidate: "value", Response: bounded(candidate, maxEvalResponse), JudgeModel: model,
		Score: score, Threshold: threshold, Passed: pass, Calls: 1, CostUSD: resp.Usage.CostUSD,
		Reason: fmt.Sprintf("cosine similarity %s with %s", fmtScore(cos), model),
	}
	res := sdk.MatchResult{Pass: pass, Score: &score, Eval: ev}
	if !pass {
		res.Failure = &sdk.Failure{
			Expected: sdk.JSON(ref),
			Actual:   in.Actual,
			Note:     fmt.Sprintf("cosine similarity %s with %s is below the threshold %s", fmtScore(cos), model, fmtScore(threshold)),
			Extra:    map[string]any{"similarity": cos, "threshold": threshold, "model": model},
		}
	}
	return res, nil
}

// errBadVectors: embeddings that cannot be compared.
var errBadVectors = fmt.Errorf("embeddings cannot be compared")

// cosine is the cosine similarity of a and b, in [-1, 1].
func cosine(a, b []float32) (float64, error) {
	if len(a) == 0 || len(a) != len(b) {
		return 0, fmt.Errorf("%w: lengths %d and %d", errBadVectors, len(a), len(b))
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 || math.IsNaN(dot) || math.IsInf(dot, 0) {
		return 0, fmt.Errorf("%w: a zero or non-finite vector", errBadVectors)
	}
	return max(-1, min(1, dot/math.Sqrt(na*nb))), nil
}
