package main

import (
	"time"

	"github.com/mcptest/mcptest/core/toolkit"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// newToolkitRun starts the report of a catalog command.
func newToolkitRun(cmd, runID string) *rpt.Run {
	return toolkit.NewRun(cmd, runID, version, time.Now())
}

// finishToolkitRun closes the report of a catalog command.
func finishToolkitRun(run *rpt.Run, server rpt.Server) {
	toolkit.Finish(run, server, time.Now())
}
