// Command shout is a private matcher plugin of the kind a team writes in a
// few lines with the SDK: "shouted" passes when the value is upper case.
package main

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

func shouted(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	var s string
	if err := json.Unmarshal(in.Actual, &s); err != nil {
		return sdk.Fail(sdk.Failure{Actual: in.Actual, Note: "not a string"}), nil
	}
	if s != "" && s == strings.ToUpper(s) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{Actual: in.Actual, Expected: sdk.JSON(strings.ToUpper(s)), Note: "not upper case"}), nil
}

func main() {
	sdk.Serve(&sdk.Plugin{
		Name:     "shout",
		Version:  "1.0.0",
		Matchers: map[string]sdk.Matcher{"shouted": sdk.MatcherFunc(shouted)},
	})
}
