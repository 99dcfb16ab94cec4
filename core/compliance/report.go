package compliance

import (
	"encoding/json"
	"fmt"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// How results appear in the canonical report:
//
//   - pass: status passed.
//   - fail (a MUST requirement broken): status failed, severity MUST.
//   - warn (a SHOULD requirement broken): status warned, severity SHOULD,
//     so every reporter shows it as a warning and none as a failure; the
//     compliance command does not count it towards exit 1. With --strict
//     it counts, and [Strict] turns the test into a failed one.
//   - not applicable: status skipped, Error.Kind "not_applicable" with the
//     reason.
//   - error (the check could not be carried out): status errored.
//   - a failure the baseline lists as known: status passed, with a first
//     assertion saying so; the findings keep their details, marked skipped.
//   - a baseline entry whose check now passes (stale): status passed, with
//     a first assertion saying the entry can go.

// ErrorKindNotApplicable is the report Error kind of a check that did not
// apply to the server.
const ErrorKindNotApplicable = "not_applicable"

// ErrorKindCheck is the report Error kind of a check that could not run.
const ErrorKindCheck = "check_error"

// TestID is the report test id of a check.
func TestID(checkID string) string { return "compliance/" + checkID }

// Test renders the result as a report test. server names the server in
// the report.
func (r *Result) Test(server string) rpt.Test {
	c := r.Check
	sev := c.Severity
	if r.Status == Warn {
		// What was broken is a SHOULD, even inside a MUST check.
		sev = Should
	}
	if r.Status == Fail {
		sev = Must
	}
	// The revision is the check's (Check.Revision), not the test's
	// ProtocolVersion: that one marks tests of a suite that fans out over
	// target_versions, and only those make per-revision summaries.
	t := rpt.Test{
		ID: TestID(c.ID), Name: c.ID + " " + c.Title, Block: "compliance", Server: server,
		DurationMS: float64(r.Duration.Microseconds()) / 1000,
		Frames:     r.evidence(),
		Check:      &rpt.Check{ID: c.ID, Title: c.Title, Severity: string(sev), Revision: r.Revision, Section: c.Section},
	}
	for i, f := range r.Findings {
		t.Assertions = append(t.Assertions, findingAssertion(i, f, c.Severity))
	}
	switch r.Status {
	case Pass:
		t.Status = rpt.StatusPassed
		if r.Stale {
			t.Assertions = prepend(t.Assertions, rpt.Assertion{Target: "baseline", Matcher: "baseline", Status: rpt.StatusPassed,
				Message: "stale baseline entry: this check passes now; remove it from the baseline"})
		}
	case Fail, Warn:
		t.Status = rpt.StatusFailed
		if r.Status == Warn {
			t.Status = rpt.StatusWarned
		}
		t.Stderr = r.Stderr
		if r.Known {
			t.Status = rpt.StatusPassed
			for i := range t.Assertions {
				if t.Assertions[i].Status == rpt.StatusFailed {
					t.Assertions[i].Status = rpt.StatusSkipped
				}
			}
			msg := "known failure listed in the baseline"
			if r.KnownReason != "" {
				msg += ": " + r.KnownReason
			}
			msg += " (" + r.Message + ")"
			t.Assertions = prepend(t.Assertions, rpt.Assertion{Target: "baseline", Matcher: "baseline", Status: rpt.StatusPassed, Message: msg})
		}
	case NotApplicable:
		t.Status = rpt.StatusSkipped
		t.Error = &rpt.Error{Kind: ErrorKindNotApplicable, Message: r.Message}
	default:
		t.Status = rpt.StatusErrored
		t.Stderr = r.Stderr
		t.Error = &rpt.Error{Kind: ErrorKindCheck, Message: r.Message}
	}
	return t
}

// Strict turns a warned test into a failed one, for `compliance run
// --strict`, where a broken SHOULD requirement fails the run: every
// reporter then shows it as the failure the exit code says it is.
func Strict(t *rpt.Test) {
	if t.Status == rpt.StatusWarned {
		t.Status = rpt.StatusFailed
	}
}

// evidence returns the frames the report keeps: only those of findings
// (a failed or warned check). Any other check keeps none: its tool calls
// may have answered with what no report should hold, such as a server's
// whole environment (server-everything's get-env), and a check that could
// not run says why in its error message.
func (r *Result) evidence() []rpt.Frame {
	if r.Status == Fail || r.Status == Warn {
		return r.Frames
	}
	return nil
}

func prepend(as []rpt.Assertion, a rpt.Assertion) []rpt.Assertion {
	out := append([]rpt.Assertion{a}, as...)
	for i := range out {
		out[i].Index = i
	}
	return out
}

// findingAssertion renders one finding as an assertion with the usual
// structured failure (expected, actual, note). The matcher slot holds the
// level of the requirement the finding is about, so a reporter's one-line
// label reads "<what was probed> › MUST" or "› SHOULD".
func findingAssertion(i int, f Finding, sev Severity) rpt.Assertion {
	switch {
	case f.Status == Warn:
		sev = Should
	case f.Status == Fail && f.Must:
		sev = Must
	}
	a := rpt.Assertion{Index: i, Target: f.Name, Matcher: string(sev), Message: f.Note}
	switch f.Status {
	case Pass:
		a.Status = rpt.StatusPassed
		return a
	case NotApplicable:
		a.Status = rpt.StatusSkipped
		return a
	}
	a.Status = rpt.StatusFailed
	failure := map[string]any{}
	if f.Expected != nil {
		failure["expected"] = f.Expected
	}
	if f.Actual != nil {
		failure["actual"] = f.Actual
	}
	if f.Note != "" {
		failure["note"] = f.Note
	}
	if b, err := json.Marshal(failure); err == nil {
		a.Failure = b
	} else {
		a.Failure = jsonString(fmt.Sprintf("%v", failure))
	}
	return a
}

// RunReport renders the whole report as a canonical run. The caller sets
// the run id, tool and exit code.
func (rep *Report) RunReport() *rpt.Run {
	server := rep.Target.Label()
	run := &rpt.Run{
		SchemaVersion: rpt.SchemaVersion,
		StartedAt:     rep.Started.UTC(),
		FinishedAt:    rep.Finished.UTC(),
		DurationMS:    float64(rep.Finished.Sub(rep.Started).Microseconds()) / 1000,
		Suites:        []string{},
		Tests:         make([]rpt.Test, 0, len(rep.Results)),
	}
	run.Servers = []rpt.Server{rep.ServerRecord()}
	for _, r := range rep.Results {
		run.Tests = append(run.Tests, r.Test(server))
	}
	if rep.Err != nil {
		run.Errors = append(run.Errors, rpt.RunError{Source: "server", Name: server, Message: rep.Err.Error()})
	}
	run.Summary.DurationMS = run.DurationMS
	run.Summarize()
	return run
}

// ServerRecord is the report's record of the server.
func (rep *Report) ServerRecord() rpt.Server {
	s := rpt.Server{Name: rep.Target.Label(), Transport: string(rep.Transport), ProtocolVersion: rep.Revision}
	if rep.Server != nil {
		s.ServerName, s.ServerVersion = rep.Server.Name, rep.Server.Version
	}
	if rep.Err != nil {
		s.Error = rep.Err.Error()
	}
	return s
}

// Verdict counts the results the way the exit code sees them.
type Verdict struct {
	Passed, Failed, Warned, Known, NotApplicable, Errored, Stale int
}

// Count tallies results.
func Count(results []*Result) Verdict {
	var v Verdict
	for _, r := range results {
		switch {
		case r.Known:
			v.Known++
		case r.Status == Pass:
			v.Passed++
		case r.Status == Fail:
			v.Failed++
		case r.Status == Warn:
			v.Warned++
		case r.Status == NotApplicable:
			v.NotApplicable++
		default:
			v.Errored++
		}
		if r.Stale {
			v.Stale++
		}
	}
	return v
}

// ExitCode is the compliance command's exit code: 2 when a check could not
// run (or the server could not be reached), else 1 when a MUST check failed
// and is not a known failure (with strict, also a SHOULD warning; with
// failOnStale, also a stale baseline entry), else 0.
func (v Verdict) ExitCode(strict, failOnStale bool) int {
	switch {
	case v.Errored > 0:
		return 2
	case v.Failed > 0, strict && v.Warned > 0, failOnStale && v.Stale > 0:
		return 1
	}
	return 0
}

// String summarises the verdict in one line.
func (v Verdict) String() string {
	s := fmt.Sprintf("%d passed, %d failed (MUST), %d warnings (SHOULD), %d not applicable", v.Passed, v.Failed, v.Warned, v.NotApplicable)
	if v.Known > 0 {
		s += fmt.Sprintf(", %d known failures", v.Known)
	}
	if v.Errored > 0 {
		s += fmt.Sprintf(", %d errored", v.Errored)
	}
	if v.Stale > 0 {
		s += fmt.Sprintf(", %d stale baseline entries", v.Stale)
	}
	return s
}
