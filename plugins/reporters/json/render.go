package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeReport writes run to the primary sink as indented JSON with a
// trailing newline. HTML characters are not escaped, so values read as the
// server sent them. The document always satisfies schemas/report.v1.json:
// the two required lists (suites, tests) are written as [] rather than
// null when empty, and a missing schema_version is filled in.
func writeReport(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	out := *run
	if out.SchemaVersion == "" {
		out.SchemaVersion = report.SchemaVersion
	}
	if out.Suites == nil {
		out.Suites = []string{}
	}
	if out.Tests == nil {
		out.Tests = []report.Test{}
	}
	enc := json.NewEncoder(s.Primary)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&out); err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	return nil
}
