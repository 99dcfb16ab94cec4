package main

import (
	"context"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
)

// execScorer runs a command per grading; it keeps no state, so gradings
// run concurrently.
type execScorer struct{}

// Score runs the entry's command on the envelope and reads its verdict.
func (execScorer) Score(ctx context.Context, in sdk.ScoreInput) (sdk.ScoreResult, error) {
	e, err := parseEntry(in.Config)
	if err != nil {
		return sdk.ScoreResult{}, err
	}
	out, err := run(ctx, e, in.Envelope)
	if err != nil {
		return sdk.ScoreResult{}, err
	}
	res, err := parseReply(out.stdout)
	if err != nil {
		return sdk.ScoreResult{}, withTail(fmt.Errorf("%s: %w", e.label(), err), out.stderr)
	}
	return res, nil
}
