package contract

import (
	"context"
	"encoding/json"
)

// Scorer is an external grader. It returns the same envelope as the built-in
// judge, so reporters and cost caps treat every grader alike.
type Scorer interface {
	Score(ctx context.Context, in ScoreInput) (ScoreResult, error)
}

// ScoreInput is one item to grade.
type ScoreInput struct {
	// Key is the scorer type, as written in the suite.
	Key string
	// Config is the scorer's block from the suite.
	Config json.RawMessage
	// Envelope is {input, output, criteria, metadata}.
	Envelope json.RawMessage
	Host     Host
}

// ScoreResult is the grader's verdict.
type ScoreResult struct {
	Verdict   string
	Score     *float64
	Reasoning string
	CostUSD   *float64
}
