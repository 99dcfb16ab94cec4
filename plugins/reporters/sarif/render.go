package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeReport writes the run as an indented SARIF log, followed by a
// newline, to the primary sink.
func writeReport(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	enc := json.NewEncoder(s.Primary)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(buildLog(run)); err != nil {
		return fmt.Errorf("encode sarif report: %w", err)
	}
	return nil
}
