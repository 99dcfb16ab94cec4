package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// reply is the grader's answer as printed; pointers tell absent from
// zero.
type reply struct {
	Verdict   *string  `json:"verdict"`
	Score     *float64 `json:"score"`
	Reasoning *string  `json:"reasoning"`
	// CostUSD may be null or absent: the grader does not know its cost.
	CostUSD *float64 `json:"cost_usd"`
}

// parseReply reads stdout as exactly one JSON object holding a verdict
// ("pass" or "fail") and a score in 0..1.
func parseReply(stdout []byte) (sdk.ScoreResult, error) {
	text := bytes.TrimSpace(stdout)
	if len(text) == 0 {
		return sdk.ScoreResult{}, fmt.Errorf("%w: stdout was empty, want one JSON object {verdict, score, reasoning, cost_usd}", ErrOutput)
	}
	if text[0] != '{' {
		return sdk.ScoreResult{}, fmt.Errorf("%w: stdout is not a JSON object: %s", ErrOutput, excerpt(text))
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	var r reply
	if err := dec.Decode(&r); err != nil {
		return sdk.ScoreResult{}, fmt.Errorf("%w: stdout is not a JSON object (%v): %s", ErrOutput, err, excerpt(text))
	}
	if dec.More() || dec.InputOffset() != int64(len(text)) {
		return sdk.ScoreResult{}, fmt.Errorf("%w: stdout holds more than one JSON value: %s", ErrOutput, excerpt(text))
	}
	if r.Verdict == nil {
		return sdk.ScoreResult{}, fmt.Errorf("%w: the reply has no verdict: %s", ErrOutput, excerpt(text))
	}
	v := strings.ToLower(strings.TrimSpace(*r.Verdict))
	if v != "pass" && v != "fail" {
		return sdk.ScoreResult{}, fmt.Errorf("%w: verdict %q is neither \"pass\" nor \"fail\"", ErrOutput, clip(*r.Verdict))
	}
	if r.Score == nil {
		return sdk.ScoreResult{}, fmt.Errorf("%w: the reply has no score: %s", ErrOutput, excerpt(text))
	}
	if s := *r.Score; math.IsNaN(s) || s < 0 || s > 1 {
		return sdk.ScoreResult{}, fmt.Errorf("%w: score %v is outside 0..1", ErrOutput, s)
	}
	if c := r.CostUSD; c != nil && *c < 0 {
		return sdk.ScoreResult{}, fmt.Errorf("%w: cost_usd %v is negative", ErrOutput, *c)
	}
	out := sdk.ScoreResult{Verdict: v, Score: r.Score, CostUSD: r.CostUSD}
	if r.Reasoning != nil {
		out.Reasoning = *r.Reasoning
	}
	return out, nil
}

// excerptLen bounds how much of a bad reply an error quotes.
const excerptLen = 200

// excerpt quotes the start of a bad reply.
func excerpt(b []byte) string {
	return fmt.Sprintf("%q", clip(string(b)))
}

// clip bounds a string the grader chose.
func clip(s string) string {
	if len(s) <= excerptLen {
		return s
	}
	return s[:excerptLen] + "…"
}
