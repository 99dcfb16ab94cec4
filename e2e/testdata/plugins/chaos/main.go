// Command chaos is a misbehaving matcher plugin for the host's failure
// tests. Its "chaos" matcher passes on any argument except:
//
//	"panic"  panics on this item
//	"exit"   writes to stderr and exits the process
//	"print-exit"
//	         prints a line to stdout (as plugin code that does not use
//	         sdk.Logger might) and exits the process
//	"hang"   never answers
//	"hang-first:PATH"
//	         never answers if the file PATH does not exist yet, creating
//	         it first; passes once it exists. The file outlives the process,
//	         so a plugin restarted after the hang passes.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

func chaos(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	if path, ok := strings.CutPrefix(strings.Trim(string(in.Argument), `"`), "hang-first:"); ok {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return sdk.Pass(), nil
		}
		f.Close()
		sdk.Logger().Error("chaos: hanging on purpose, this once")
		select {}
	}
	switch string(in.Argument) {
	case `"panic"`:
		panic("chaos: panic on purpose")
	case `"exit"`:
		sdk.Logger().Error("chaos: exiting on purpose")
		os.Exit(7)
	case `"print-exit"`:
		fmt.Println("chaos: printed just before exiting")
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
