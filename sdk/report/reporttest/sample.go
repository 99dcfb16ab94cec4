// Package reporttest provides a canonical sample run for testing reporters:
// it has every status, structured failures, scores, tags, compliance checks,
// frames, hostile text (markup, escapes, control characters) and a
// run-level plugin crash, so one fixture exercises every branch a format
// must render.
package reporttest

import (
	"encoding/json"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// Hostile is text a server might send to break a format or a terminal:
// markup, quotes, an ANSI clear-screen, a NUL-free control character and
// non-ASCII letters.
const Hostile = "<b>&\"quoted\"</b> \x1b[2J\x07 naïve ✓"

func f(v float64) *float64 { return &v }

// Sample returns a fresh copy of the sample run.
func Sample() *report.Run {
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	failure := json.RawMessage(`{"expected":"goodbye","actual":"hello","diff":"[-goodbye-]{+hello+}"}`)
	schemaFailure := json.RawMessage(`{"errors":[{"instance_path":"/isError","schema_path":"/properties/isError/type","message":"expected boolean, got string"}]}`)
	return &report.Run{
		SchemaVersion: report.SchemaVersion,
		RunID:         "20261125T120000Z-0123456789abcdef",
		Tool:          report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt:     start,
		FinishedAt:    start.Add(1500 * time.Millisecond),
		DurationMS:    1500,
		Suites:        []string{"suites/smoke.yml", "suites/compliance.yml"},
		Servers: []report.Server{
			{Name: "demo", Transport: "stdio", ProtocolVersion: "2025-11-25", ServerName: "mcptest-demo", ServerVersion: "1.0.0"},
			{Name: "broken", Transport: "stdio", Error: "server \"broken\" exited (exit status 3)"},
		},
		Tests: []report.Test{
			{
				ID: "suites/smoke.yml::tools::echo passes", Name: "echo passes", File: "suites/smoke.yml", Line: 7, Col: 5,
				Block: "tools", Server: "demo", Tool: "echo", Tags: []string{"smoke", "fast"}, Status: report.StatusPassed, DurationMS: 3.25,
				Assertions: []report.Assertion{{Index: 0, Target: "result.content[0].text", Matcher: "exact", Status: report.StatusPassed, Plugin: "text@0.1.0"}},
			},
			{
				ID: "suites/smoke.yml::tools::echo fails " + Hostile, Name: "echo fails " + Hostile, File: "suites/smoke.yml", Line: 15, Col: 5,
				Block: "tools", Server: "demo", Tool: "echo", Tags: []string{"smoke"}, Status: report.StatusFailed, DurationMS: 4.5,
				Assertions: []report.Assertion{
					{Index: 0, Target: "result.content[0].text", Matcher: "exact", Message: "echo should say goodbye", Status: report.StatusFailed, Failure: failure, Plugin: "text@0.1.0"},
					{Index: 1, Target: "result", Matcher: "schema", Status: report.StatusFailed, Failure: schemaFailure, Plugin: "schema@0.1.0"},
				},
				Response: json.RawMessage(`{"result":{"content":[{"type":"text","text":"hello"}]}}`),
				Stderr:   "demo: warning " + Hostile,
				Frames: []report.Frame{
					{Direction: "send", AtMS: 0.1, Data: json.RawMessage(`{"jsonrpc":"2.0","id":1000001,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}`)},
					{Direction: "recv", AtMS: 4.2, Data: json.RawMessage(`{"jsonrpc":"2.0","id":1000001,"result":{"content":[{"type":"text","text":"hello"}]}}`)},
				},
			},
			{
				ID: "suites/smoke.yml::tools::scored", Name: "scored", File: "suites/smoke.yml", Line: 30, Col: 5,
				Block: "tools", Server: "demo", Tool: "greet", Status: report.StatusPassed, DurationMS: 2,
				Score: f(0.75), Threshold: f(0.7),
				Assertions: []report.Assertion{
					{Index: 0, Target: "result.content[0].text", Matcher: "contains", Status: report.StatusPassed, Score: f(1), Plugin: "text@0.1.0"},
					{Index: 1, Target: "result.content[0].text", Matcher: "regex", Status: report.StatusFailed, Score: f(0), Failure: json.RawMessage(`{"expected":"^Hi","actual":"Hello, Ada!","match":null}`), Plugin: "text@0.1.0"},
				},
			},
			{
				ID: "suites/smoke.yml::tools::server crashed", Name: "server crashed", File: "suites/smoke.yml", Line: 40, Col: 5,
				Block: "tools", Server: "broken", Tool: "crash", Status: report.StatusErrored, DurationMS: 12,
				Error:  &report.Error{Kind: "server_exited", Message: "server \"broken\" exited (exit status 3)"},
				Stderr: "panic: crash requested\ngoroutine 1 [running]:",
			},
			{
				ID: "suites/smoke.yml::tools::not reached", Name: "not reached", File: "suites/smoke.yml", Line: 50, Col: 5,
				Block: "tools", Server: "demo", Tool: "echo", Tags: []string{"slow"}, Status: report.StatusSkipped,
				Error: &report.Error{Kind: "skipped", Message: "run interrupted before the test started"},
			},
			{
				ID: "suites/compliance.yml::compliance::J01", Name: "J01 response id matches request id", File: "suites/compliance.yml", Line: 3, Col: 3,
				Block: "compliance", Server: "demo", Status: report.StatusPassed, DurationMS: 1,
				Check: &report.Check{ID: "J01", Title: "Response id equals request id", Severity: "MUST", Revision: "2025-11-25", Section: "basic/index"},
			},
			{
				ID: "suites/compliance.yml::compliance::J04", Name: "J04 unknown method is -32601", File: "suites/compliance.yml", Line: 3, Col: 3,
				Block: "compliance", Server: "demo", Status: report.StatusFailed, DurationMS: 1,
				Check:      &report.Check{ID: "J04", Title: "Unknown method answers -32601", Severity: "MUST", Revision: "2025-11-25", Section: "basic/index"},
				Assertions: []report.Assertion{{Index: 0, Target: "error.code", Matcher: "exact", Status: report.StatusFailed, Failure: json.RawMessage(`{"expected":-32601,"actual":-32600}`)}},
			},
			{
				ID: "suites/compliance.yml::compliance::T06", Name: "T06 tool names follow the naming rules", File: "suites/compliance.yml", Line: 3, Col: 3,
				Block: "compliance", Server: "demo", Status: report.StatusWarned, DurationMS: 1,
				Check:      &report.Check{ID: "T06", Title: "Tool names use 1-128 characters of [A-Za-z0-9_.-]", Severity: "SHOULD", Revision: "2025-11-25", Section: "server/tools"},
				Assertions: []report.Assertion{{Index: 0, Target: "result.tools[2].name", Matcher: "regex", Status: report.StatusFailed, Failure: json.RawMessage(`{"expected":"^[A-Za-z0-9_.-]{1,128}$","actual":"bad name!","match":null}`)}},
			},
		},
		Summary: report.Summary{Total: 8, Passed: 3, Failed: 2, Warned: 1, Errored: 1, Skipped: 1, DurationMS: 1500},
		Errors: []report.RunError{{
			Source: "plugin", Name: "chaos@0.0.1", Message: "plugin crashed: the plugin process exited during the run",
			StderrTail: "ERROR: chaos: exiting on purpose",
		}},
		ExitCode: 2,
	}
}

// Events returns the event stream a live run of Sample would produce:
// run_started, test_started/test_finished per test, run_finished.
func Events() []report.Event {
	return EventsOf(Sample())
}

// EventsOf returns the event stream a live run producing run would
// emit: run_started, test_started/test_finished per test, run_finished.
func EventsOf(run *report.Run) []report.Event {
	header := *run
	header.Tests = nil
	at := run.StartedAt
	evs := []report.Event{{Type: report.EventRunStarted, Time: at, Total: len(run.Tests), Run: &header}}
	for i := range run.Tests {
		t := run.Tests[i]
		start := t.Header()
		evs = append(evs,
			report.Event{Type: report.EventTestStarted, Time: at, Test: &start},
			report.Event{Type: report.EventTestFinished, Time: at, Test: &t})
	}
	return append(evs, report.Event{Type: report.EventRunFinished, Time: run.FinishedAt, Run: run})
}
