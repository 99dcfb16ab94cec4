package toolkit

import (
	"fmt"
	"time"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Finding check ids shared by audit and fuzz: a tool that crashed or did
// not answer in time. Lint has one check id per rule.
const (
	CheckCrashed  = "crashed"
	CheckTimedOut = "timed-out"
)

// NewRun starts the report of a toolkit command: the command's name goes
// into the run id, so reports of different commands never merge.
func NewRun(command, runID, toolVersion string, started time.Time) *rpt.Run {
	if runID == "" {
		runID = started.UTC().Format("20060102T150405Z") + "-" + command
	}
	return &rpt.Run{
		SchemaVersion: rpt.SchemaVersion, RunID: runID, Tool: rpt.ToolInfo{Name: "mcptest", Version: toolVersion},
		StartedAt: started.UTC(), Suites: []string{},
	}
}

// Finish closes the run: servers, summary, duration and exit code (1 when
// a test failed or errored, else 0).
func Finish(run *rpt.Run, server rpt.Server, finished time.Time) {
	if server.Name != "" {
		run.Servers = []rpt.Server{server}
	}
	run.FinishedAt = finished.UTC()
	run.DurationMS = float64(finished.Sub(run.StartedAt).Microseconds()) / 1000
	run.Summary.DurationMS = run.DurationMS
	run.Summarize()
	run.ExitCode = 0
	if run.Summary.Failed > 0 || run.Summary.Errored > 0 {
		run.ExitCode = 1
	}
}

// HealthCheck returns the check of a verdict that is a finding, or nil
// for a healthy one. Crashing and hanging are treated as MUST-level: a
// tool must answer, with isError for a failure it handled.
func HealthCheck(command string, v Verdict) *rpt.Check {
	switch v.Health {
	case Crashed:
		return &rpt.Check{ID: command + "/" + CheckCrashed, Title: "a tool call ended in a JSON-RPC error other than -32602 or broke the transport", Severity: "MUST"}
	case TimedOut:
		return &rpt.Check{ID: command + "/" + CheckTimedOut, Title: "a tool call did not answer in time", Severity: "MUST"}
	}
	return nil
}

// Describe says what a verdict means in a few words.
func Describe(v Verdict) string {
	switch v.Kind {
	case "result":
		return "healthy: answered with a result"
	case "tool_error":
		return "healthy: answered with an isError result"
	case "invalid_params":
		return "healthy: rejected the arguments with -32602 (" + v.Detail + ")"
	case "timeout":
		return "timed out: " + v.Detail
	case "server_exited":
		return "crashed: the server exited: " + v.Detail
	case "transport":
		return "crashed: the transport failed: " + v.Detail
	}
	return fmt.Sprintf("crashed: JSON-RPC error %d: %s", v.Code, v.Detail)
}
