package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeHTML writes the page for run to the primary sink.
func writeHTML(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	// json.Marshal escapes <, >, &, U+2028 and U+2029 inside strings, so the
	// encoded report can neither end its script element nor open a comment.
	data, err := json.Marshal(run)
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	w := bufio.NewWriterSize(s.Primary, 64<<10)
	if err := pageTmpl.Execute(w, newPage(run, data)); err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
