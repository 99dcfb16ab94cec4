// Package score turns assertion outcomes into test verdicts and a run's
// verdicts into an exit code.
package score

import "github.com/mcptest/mcptest/sdk/report"

// Exit codes, as DESIGN.md defines them.
const (
	// ExitPassed: every test passed.
	ExitPassed = 0
	// ExitFailed: at least one test failed.
	ExitFailed = 1
	// ExitError: the suite or the run could not be carried out (bad
	// config, unreachable server, a plugin missing or crashed, an errored
	// test).
	ExitError = 2
)

// TestStatus is the verdict of a test from its assertions: errored if any
// assertion could not be evaluated, failed if any failed, passed otherwise
// (every assertion must pass when the test sets no threshold).
func TestStatus(assertions []report.Assertion) report.Status {
	st := report.StatusPassed
	for _, a := range assertions {
		switch a.Status {
		case report.StatusErrored:
			return report.StatusErrored
		case report.StatusFailed:
			st = report.StatusFailed
		}
	}
	return st
}

// ExitCode is the process exit code of a finished run: 2 when anything
// errored (a test or the run itself), else 1 when a test failed, else 0.
func ExitCode(r *report.Run) int {
	if len(r.Errors) > 0 {
		return ExitError
	}
	code := ExitPassed
	for _, t := range r.Tests {
		switch t.Status {
		case report.StatusErrored:
			return ExitError
		case report.StatusFailed:
			code = ExitFailed
		}
	}
	return code
}
