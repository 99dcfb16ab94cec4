// Package score is the scoring model: it combines the verdicts of composed
// matchers (not, anyOf, allOf, oneOf), weighs assertions and assert-sets
// into a test's combined score, gates it on thresholds and derived
// metrics, rolls the metrics up over a run, and turns a run's verdicts
// into an exit code. It does no I/O: the runner gathers the verdicts of
// the matcher plugins and hands them here.
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

// TestStatus is the legacy verdict of a test from its assertions: errored
// if any assertion could not be evaluated, failed if any failed, deferred
// if any waits for a model key, passed otherwise. Verdict is the full
// model (weights, thresholds, metrics).
func TestStatus(assertions []report.Assertion) report.Status {
	st := report.StatusPassed
	for _, a := range assertions {
		switch a.Status {
		case report.StatusErrored:
			return report.StatusErrored
		case report.StatusFailed:
			st = report.StatusFailed
		case report.StatusDeferred:
			if st == report.StatusPassed {
				st = report.StatusDeferred
			}
		}
	}
	return st
}

// ExitCode is the process exit code of a finished run: 2 when anything
// errored (a test or the run itself), else 1 when a test failed, else 0.
// A warned test (a compliance check that broke only SHOULD requirements)
// is reported, but it does not fail the run.
func ExitCode(r *report.Run) int {
	if len(r.Errors) > 0 {
		return ExitError
	}
	code := ExitPassed
	// With --trials-pass any a test passes when one of its trials did;
	// its other trials' failures do not fail the run.
	forgiven := map[string]bool{}
	if r.Trials != nil && r.Trials.Pass == report.TrialsPassAny {
		for i := range r.Trials.Tests {
			if r.Trials.Tests[i].PassAtK {
				forgiven[r.Trials.Tests[i].ID] = true
			}
		}
	}
	for _, t := range r.Tests {
		if t.TrialOf != "" && forgiven[t.TrialOf] {
			continue
		}
		switch t.Status {
		case report.StatusErrored:
			return ExitError
		case report.StatusFailed:
			code = ExitFailed
		}
	}
	return code
}
