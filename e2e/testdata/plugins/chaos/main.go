// Command chaos is a misbehaving matcher plugin for the host's failure
// tests. Its "chaos" matcher passes on any argument except:
//
//	"panic"  panics on this item
//	"exit"   writes to stderr and exits the process
//	"hang"   never answers
package main

import (
	"context"
	"os"

	"github.com/mcptest/mcptest/sdk"
)

func chaos(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	switch string(in.Argument) {
	case `"panic"`:
		panic("chaos: panic on purpose")
	case `"exit"`:
		sdk.Logger().Error("chaos: exiting on purpose")
		os.Exit(7)
	case `"hang"`:
		sdk.Logger().Error("chaos: hanging on purpose")
		select {}
	}
	return sdk.Pass(), nil
}

func main() {
	sdk.Serve(&sdk.Plugin{
		Name:     "chaos",
		Version:  "0.0.1",
		Matchers: map[string]sdk.Matcher{"chaos": sdk.MatcherFunc(chaos)},
	})
}
