// Command altjson is a private reporter that takes over the "json" and
// "junit" formats, to show a team can swap a bundled reporter without
// rebuilding mcptest.
package main

import (
	"context"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

func render(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	_, err := fmt.Fprintf(s.Primary, "ALTJSON passed=%d failed=%d total=%d\n", run.Summary.Passed, run.Summary.Failed, run.Summary.Total)
	return err
}

func main() {
	sdk.Serve(&sdk.Plugin{
		Name:      "altjson",
		Version:   "0.9.0",
		Reporters: map[string]sdk.Reporter{"json": sdk.FinalReporter(render), "junit": sdk.FinalReporter(render)},
	})
}
