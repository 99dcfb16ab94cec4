package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// render writes each event as one line as soon as it is read. The SDK
// sends what was written for one event to the host before it reads the
// next, so nothing waits for the end of the run.
//
// json.Encoder writes compact JSON and compacts embedded raw values
// (responses, frames), and JSON strings escape newlines, so an event can
// never span two lines. HTML characters are left unescaped so values read
// as the server sent them, as in the json reporter.
func render(_ context.Context, s *sdk.RenderSession) error {
	enc := json.NewEncoder(s.Primary)
	enc.SetEscapeHTML(false)
	finished := false
	for ev := range s.Events() {
		if err := enc.Encode(&ev); err != nil {
			return fmt.Errorf("encode %s event: %w", ev.Type, err)
		}
		if ev.Type == report.EventRunFinished {
			finished = true
		}
	}
	// The lines already written stay useful, but a stream cut short is
	// still a failed report, as for every other reporter.
	if !finished {
		return sdk.ErrNoRunFinished
	}
	return nil
}
