// Command askmodel is a private matcher plugin that judges a value by
// asking a model through mcptest's Host service, as a team's own
// model-graded matcher would: it holds no key and names no vendor, the
// host routes the call. Key "model-says", argument
// {model: <id>, provider: <name or "">, contains: <text>}: the item passes
// when the model's answer about the value contains the text. A model
// without a key: the plugin returns the Host's error as it is, which the
// SDK reports as a deferred item naming the variable.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

type argument struct {
	Model    string `json:"model"`
	Provider string `json:"provider"`
	Contains string `json:"contains"`
}

func match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	var arg argument
	if err := json.Unmarshal(in.Argument, &arg); err != nil {
		return sdk.MatchResult{}, fmt.Errorf("model-says: %w", err)
	}
	resp, err := in.Host.Complete(ctx, arg.Provider, sdk.ChatRequest{
		Model:     arg.Model,
		System:    "Answer yes or no.",
		MaxTokens: 16,
		Messages:  []sdk.Message{{Role: "user", Content: "Is this a greeting? " + string(in.Actual)}},
	})
	if errors.Is(err, sdk.ErrNoModelKey) {
		return sdk.MatchResult{}, fmt.Errorf("deferred: %w", err)
	}
	if err != nil {
		return sdk.MatchResult{}, err
	}
	if strings.Contains(resp.Message.Content, arg.Contains) {
		return sdk.Pass(), nil
	}
	answer, _ := json.Marshal(resp.Message.Content)
	return sdk.Fail(sdk.Failure{Actual: answer, Note: fmt.Sprintf("the model (%d tokens) did not answer %q", resp.Usage.Total(), arg.Contains)}), nil
}

func main() {
	sdk.Serve(&sdk.Plugin{
		Name:     "askmodel",
		Version:  "0.1.0",
		Matchers: map[string]sdk.Matcher{"model-says": sdk.MatcherFunc(match)},
	})
}
