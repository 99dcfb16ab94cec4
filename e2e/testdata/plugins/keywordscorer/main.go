// Command keywordscorer is a private scorer plugin, as a team would write
// one for a grading service of its own: it serves the scorer type
// "keyword", which passes a candidate whose output contains the criteria
// text. It knows no cost, so it reports none.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

type keyword struct{}

func (keyword) Score(_ context.Context, in sdk.ScoreInput) (sdk.ScoreResult, error) {
	var env struct {
		Output   string `json:"output"`
		Criteria string `json:"criteria"`
	}
	if err := json.Unmarshal(in.Envelope, &env); err != nil {
		return sdk.ScoreResult{}, sdk.InvalidArgument("keyword: envelope: %v", err)
	}
	if env.Criteria == "" {
		return sdk.ScoreResult{}, sdk.InvalidArgument("keyword: the eval gives no criteria to look for")
	}
	score, verdict := 0.0, "fail"
	if strings.Contains(env.Output, env.Criteria) {
		score, verdict = 1, "pass"
	}
	return sdk.ScoreResult{Verdict: verdict, Score: &score, Reasoning: fmt.Sprintf("looked for %q", env.Criteria)}, nil
}

func main() {
	sdk.Serve(&sdk.Plugin{Name: "keywordscorer", Version: "1.0.0", Scorers: map[string]sdk.Scorer{"keyword": keyword{}}})
}
