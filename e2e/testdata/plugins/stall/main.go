// Command stall is a misbehaving reporter plugin for the emitter's failure
// tests. Its reporters:
//
//	"stall"    reads the first event, then neither reads another nor
//	           returns: the host's deadlines must cut it off
//	"halfway"  writes part of a report, then fails at run_finished: the
//	           report file must not be replaced by the half
//
// With STALL_HANDSHAKE set, the plugin never completes go-plugin's
// handshake (it still answers `describe`, so it can be installed): mcptest
// is then blocked starting it.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

func stall(_ context.Context, s *sdk.RenderSession) error {
	for range s.Events() {
		fmt.Fprintln(s.Primary, "STALL first event")
		sdk.Logger().Error("stall: not reading events on purpose")
		// The stream's context is not waited on either: a plugin stuck in
		// its own code does not notice the host giving up.
		select {}
	}
	return nil
}

func halfway(_ context.Context, s *sdk.RenderSession) error {
	for ev := range s.Events() {
		if ev.Type == report.EventRunFinished {
			fmt.Fprintln(s.Primary, "HALFWAY partial report")
			return errors.New("halfway: failing on purpose after a partial report")
		}
	}
	return nil
}

func main() {
	if os.Getenv("STALL_HANDSHAKE") != "" && len(os.Args) == 1 {
		select {}
	}
	sdk.Serve(&sdk.Plugin{
		Name:    "stall",
		Version: "0.0.1",
		Reporters: map[string]sdk.Reporter{
			"stall":   sdk.ReporterFunc(stall),
			"halfway": sdk.ReporterFunc(halfway),
		},
	})
}
