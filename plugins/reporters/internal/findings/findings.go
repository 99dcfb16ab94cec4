// Package findings lists the problems in a test report the way the
// code-quality formats (SARIF, GitLab Code Quality) report them: one
// finding per failed or errored assertion, or per test when no assertion
// explains its status, each with a rule ID, a one-line summary, details and
// a fingerprint that is stable across runs.
package findings

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Kind says what a finding reports.
type Kind int

// The kinds of finding. A failed test gives one finding per failed or
// errored assertion, or a [TestFailed] finding when none of its assertions
// failed (its score missed its threshold); an errored test gives one
// [TestErrored] finding. Passed and skipped tests give none.
const (
	AssertionFailed Kind = iota
	AssertionErrored
	TestFailed
	TestErrored
)

// Rule names of findings that are not compliance checks.
const (
	// RuleAssertionPrefix, followed by the matcher's name, names a failed
	// assertion.
	RuleAssertionPrefix = "mcptest/assertion/"
	// RuleTestFailed names a test that failed with no failed assertion.
	RuleTestFailed = "mcptest/test-failed"
	// RuleTestErrored names a test, or an assertion, that could not be
	// judged.
	RuleTestErrored = "mcptest/test-errored"
	// RuleEvalFailed names a graded test (an eval) whose grade failed.
	RuleEvalFailed = "mcptest/eval-failed"
)

// Limits of the text a finding carries.
const (
	// SummaryValueRunes caps expected and actual values in a summary.
	SummaryValueRunes = 100
	// SummaryRunes caps a whole summary line.
	SummaryRunes = 500
	// DetailStderrLines is how many stderr lines details repeat.
	DetailStderrLines = 10
)

// Finding is one problem a code-quality format reports.
type Finding struct {
	// Test is the test the finding is about.
	Test *report.Test
	// Assertion is the assertion reported, nil for test-level findings.
	Assertion *report.Assertion
	// Kind says what the finding reports.
	Kind Kind
	// Fingerprint identifies the finding across runs: the sha256 of the
	// test's ID, its protocol version when it has one, and the assertion's
	// index (or "test"), joined by NUL bytes.
	Fingerprint string
}

// Collect lists the findings of tests in report order, each with a
// fingerprint unique within the list. Passed and skipped tests give none.
func Collect(tests []report.Test) []Finding {
	var out []Finding
	seen := map[string]int{}
	add := func(t *report.Test, a *report.Assertion, kind Kind) {
		parts := []string{t.ID}
		if t.ProtocolVersion != "" {
			parts = append(parts, t.ProtocolVersion)
		}
		if a != nil {
			parts = append(parts, strconv.Itoa(a.Index))
		} else {
			parts = append(parts, "test")
		}
		key := strings.Join(parts, "\x00")
		if n := seen[key]; n > 0 { // the same test twice, as in a badly merged report
			seen[key]++
			key += "\x00" + strconv.Itoa(n)
		} else {
			seen[key] = 1
		}
		sum := sha256.Sum256([]byte(key))
		out = append(out, Finding{Test: t, Assertion: a, Kind: kind, Fingerprint: hex.EncodeToString(sum[:])})
	}
	for i := range tests {
		t := &tests[i]
		// A warning is listed like a failure whatever status the report
		// gives it; Warning tells the formats to grade it down.
		switch {
		case t.Status == report.StatusFailed || t.IsWarning():
			n := len(out)
			for j := range t.Assertions {
				switch a := &t.Assertions[j]; a.Status {
				case report.StatusFailed:
					add(t, a, AssertionFailed)
				case report.StatusErrored:
					add(t, a, AssertionErrored)
				}
			}
			if len(out) == n {
				add(t, nil, TestFailed)
			}
		case t.Status == report.StatusPassed || t.Status == report.StatusSkipped || t.Status == report.StatusDeferred:
			// A deferred agent test found nothing about the server: its
			// model could not be reached for want of a key.
		default: // errored, or a status this reporter does not know
			add(t, nil, TestErrored)
		}
	}
	return out
}

// Check is the compliance check the finding is about: the assertion's own
// check (an entry running several checks names one per assertion), else
// the test's; nil for tests that are not checks.
func (f *Finding) Check() *report.Check {
	return f.Test.FindingCheck(f.Assertion)
}

// RuleID names what the finding violates: the compliance check's ID, the
// failed assertion's matcher, or a test-level rule.
func (f *Finding) RuleID() string {
	if c := f.Check(); c != nil && textsafe.CleanLineTrim(c.ID) != "" {
		return textsafe.CleanLineTrim(c.ID)
	}
	switch f.Kind {
	case AssertionFailed:
		return RuleAssertionPrefix + cmp.Or(textsafe.CleanLineTrim(f.Assertion.Matcher), "unknown")
	case TestFailed:
		if f.Test.Eval != nil {
			return RuleEvalFailed
		}
		return RuleTestFailed
	}
	return RuleTestErrored
}

// Errored reports whether the finding is about something that could not
// be judged rather than something that failed.
func (f *Finding) Errored() bool {
	return f.Kind == AssertionErrored || f.Kind == TestErrored
}

// Warning reports whether the finding is a warning: its test failed only
// SHOULD requirements (report.Test.IsWarning), which does not fail the
// run, or it is a SHOULD finding of an entry that failed on a MUST one.
// Formats grade it below any failure.
func (f *Finding) Warning() bool {
	switch {
	case f.Errored():
		return false
	case f.Test.IsWarning():
		return true
	case !shouldLevel(f.CheckSeverity()) || f.Assertion == nil || f.Assertion.Check == nil:
		return false
	}
	// A test running several checks fails on what it broke at MUST level;
	// what it broke at SHOULD level beside that is still only a warning.
	// (With nothing broken at MUST level it failed because of --strict,
	// and then its SHOULD findings are failures.)
	for i := range f.Test.Assertions {
		a := &f.Test.Assertions[i]
		if a.Status == report.StatusFailed && a.Check != nil && mustLevel(strings.ToUpper(textsafe.CleanLineTrim(a.Check.Severity))) {
			return true
		}
	}
	return false
}

// shouldLevel and mustLevel tell the requirement levels of RFC 2119 apart.
func shouldLevel(sev string) bool {
	return sev == "SHOULD" || sev == "SHOULD NOT" || sev == "RECOMMENDED"
}

func mustLevel(sev string) bool {
	return sev == "MUST" || sev == "MUST NOT" || sev == "REQUIRED" || sev == "SHALL" || sev == "SHALL NOT"
}

// CheckSeverity returns the compliance check's severity in capitals ("MUST",
// "SHOULD"), or "" for tests that are not checks.
func (f *Finding) CheckSeverity() string {
	if c := f.Check(); c != nil {
		return strings.ToUpper(textsafe.CleanLineTrim(c.Severity))
	}
	return ""
}

// Subject names the test: a check by its ID, title and severity, any
// other test by its name.
func (f *Finding) Subject() string {
	t := f.Test
	name := cmp.Or(textsafe.CleanLineTrim(t.Name), textsafe.CleanLineTrim(t.ID), "(unnamed test)")
	if c := f.Check(); c != nil {
		s := failtext.JoinWords(c.ID, cmp.Or(textsafe.CleanLineTrim(c.Title), name))
		if sev := f.CheckSeverity(); sev != "" {
			s += " (" + sev + ")"
		}
		return s
	}
	return name
}

// Summary says on one line what went wrong, cut to [SummaryRunes]:
// "J04 Unknown method answers -32601 (MUST): error.code exact failed
// (expected -32601, actual -32600)".
func (f *Finding) Summary() string {
	t, a := f.Test, f.Assertion
	var what string
	switch f.Kind {
	case AssertionFailed:
		what = failtext.JoinWords(a.Target, a.Matcher, "failed")
		if a.Check != nil {
			what = "failed" // the subject already names the check and its level
		}
		if m := textsafe.CleanLineTrim(a.Message); m != "" {
			what += ": " + m
		}
		// Expected and actual values say the most; failing those, the
		// first field of the failure does.
		var vals []string
		fields := failtext.Fields(a.Failure)
		for _, fl := range fields {
			if fl.Name == "expected" || fl.Name == "actual" {
				vals = append(vals, fl.Name+" "+textsafe.Truncate(textsafe.CleanLineTrim(fl.Value), SummaryValueRunes))
			}
		}
		if len(vals) == 0 && len(fields) > 0 {
			vals = append(vals, fields[0].Name+" "+textsafe.Truncate(textsafe.CleanLineTrim(fields[0].Value), SummaryValueRunes))
		}
		if len(vals) > 0 {
			what += " (" + strings.Join(vals, ", ") + ")"
		}
	case AssertionErrored:
		what = failtext.JoinWords(a.Target, a.Matcher, "could not be judged:") + " " +
			cmp.Or(textsafe.CleanLineTrim(a.Error), "no error message")
	case TestFailed:
		what = "failed"
		if e := t.Eval; e != nil {
			what = "eval failed with score " + evaltext.Score(e) + " (threshold " + evaltext.Threshold(e) + ")"
			if r := textsafe.CleanLineTrim(e.Reason); r != "" {
				what += ": " + r
			}
		} else if t.Score != nil && t.Threshold != nil {
			what += " with score " + failtext.FormatNumber(*t.Score) + " below the threshold " + failtext.FormatNumber(*t.Threshold)
		}
	default:
		what = "could not be judged"
		if e := t.Error; e != nil {
			what += ": " + strings.TrimPrefix(textsafe.CleanLineTrim(e.Kind)+": "+textsafe.CleanLineTrim(e.Message), ": ")
		} else if t.Status != report.StatusErrored {
			what += ": unknown status " + strconv.Quote(textsafe.CleanLineTrim(string(t.Status)))
		}
	}
	return textsafe.Truncate(f.Subject()+": "+what, SummaryRunes)
}

// Details lists what a reader needs beyond the summary, one item a line:
// the structured failure, errored assertions, the score, the check's
// source and the tail of the server's stderr.
func (f *Finding) Details() []string {
	t, a := f.Test, f.Assertion
	var out []string
	if a != nil && a.Status == report.StatusFailed {
		if a.Score != nil {
			out = append(out, "score: "+failtext.FormatNumber(*a.Score))
		}
		for _, fl := range failtext.Fields(a.Failure) {
			out = append(out, fl.Name+": "+fl.Value)
		}
	}
	if a != nil && a.Plugin != "" {
		out = append(out, "judged by: "+textsafe.CleanLineTrim(a.Plugin))
	}
	if a != nil && a.Eval != nil {
		out = append(out, evaltext.Headline(a.Eval))
		out = append(out, evaltext.Details(a.Eval)...)
	}
	if a == nil && t.Eval != nil {
		out = append(out, evaltext.Headline(t.Eval))
		out = append(out, evaltext.Details(t.Eval)...)
	}
	if f.Kind == TestErrored {
		for i := range t.Assertions {
			if e := &t.Assertions[i]; e.Status == report.StatusErrored {
				out = append(out, failtext.JoinWords("assertion", e.Target, e.Matcher, "could not be judged:")+" "+
					cmp.Or(textsafe.CleanLineTrim(e.Error), "no error message"))
			}
		}
	}
	if t.Score != nil && t.Threshold != nil {
		out = append(out, "test score: "+failtext.FormatNumber(*t.Score)+" (threshold "+failtext.FormatNumber(*t.Threshold)+")")
	}
	if c := f.Check(); c != nil && (c.Revision != "" || c.Section != "") {
		out = append(out, "specification: "+failtext.JoinWords(c.Revision, c.Section))
	}
	if tail := strings.TrimRight(textsafe.Clean(t.Stderr), "\n"); tail != "" {
		out = append(out, "server stderr (last lines):\n"+textsafe.Tail(tail, DetailStderrLines))
	}
	return out
}
