package main

// This file is kept identical in plugins/reporters/sarif and gitlab: both
// report the same findings, with the same rule names and fingerprints.
// Change both copies together until the code moves to a shared package.

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// findingKind says what a finding reports.
type findingKind int

// The kinds of finding. A failed test gives one finding per failed or
// errored assertion, or a testFailed finding when none of its assertions
// failed (its score missed its threshold); an errored test gives one
// testErrored finding. Passed and skipped tests give none.
const (
	assertionFailed findingKind = iota
	assertionErrored
	testFailed
	testErrored
)

// Rule names of findings that are not compliance checks.
const (
	ruleAssertionPrefix = "mcptest/assertion/"
	ruleTestFailed      = "mcptest/test-failed"
	ruleTestErrored     = "mcptest/test-errored"
)

// Limits of the text a finding carries.
const (
	// summaryValueRunes caps expected and actual values in a summary.
	summaryValueRunes = 100
	// summaryRunes caps a whole summary line.
	summaryRunes = 500
	// detailStderrLines is how many stderr lines details repeat.
	detailStderrLines = 10
)

// finding is one problem a code-quality format reports.
type finding struct {
	Test *report.Test
	// Assertion is the assertion reported, nil for test-level findings.
	Assertion *report.Assertion
	Kind      findingKind
	// Fingerprint identifies the finding across runs: the sha256 of the
	// test's ID, its protocol version when it has one, and the assertion's
	// index (or "test"), joined by NUL bytes.
	Fingerprint string
}

// collectFindings lists the findings of tests in report order, each with
// a fingerprint unique within the list.
func collectFindings(tests []report.Test) []finding {
	var out []finding
	seen := map[string]int{}
	add := func(t *report.Test, a *report.Assertion, kind findingKind) {
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
		out = append(out, finding{Test: t, Assertion: a, Kind: kind, Fingerprint: hex.EncodeToString(sum[:])})
	}
	for i := range tests {
		t := &tests[i]
		switch t.Status {
		case report.StatusPassed, report.StatusSkipped:
		case report.StatusFailed:
			n := len(out)
			for j := range t.Assertions {
				switch a := &t.Assertions[j]; a.Status {
				case report.StatusFailed:
					add(t, a, assertionFailed)
				case report.StatusErrored:
					add(t, a, assertionErrored)
				}
			}
			if len(out) == n {
				add(t, nil, testFailed)
			}
		default: // errored, or a status this reporter does not know
			add(t, nil, testErrored)
		}
	}
	return out
}

// ruleID names what the finding violates: the compliance check's ID, the
// failed assertion's matcher, or a test-level rule.
func (f *finding) ruleID() string {
	if c := f.Test.Check; c != nil && cleanLine(c.ID) != "" {
		return cleanLine(c.ID)
	}
	switch f.Kind {
	case assertionFailed:
		return ruleAssertionPrefix + nonEmpty(cleanLine(f.Assertion.Matcher), "unknown")
	case testFailed:
		return ruleTestFailed
	}
	return ruleTestErrored
}

// errored reports whether the finding is about something that could not
// be judged rather than something that failed.
func (f *finding) errored() bool {
	return f.Kind == assertionErrored || f.Kind == testErrored
}

// checkSeverity returns the compliance check's severity in capitals ("MUST",
// "SHOULD"), or "" for tests that are not checks.
func (f *finding) checkSeverity() string {
	if f.Test.Check == nil {
		return ""
	}
	return strings.ToUpper(cleanLine(f.Test.Check.Severity))
}

// subject names the test: a check by its ID, title and severity, any
// other test by its name.
func (f *finding) subject() string {
	t := f.Test
	name := nonEmpty(nonEmpty(cleanLine(t.Name), cleanLine(t.ID)), "(unnamed test)")
	if c := t.Check; c != nil {
		s := joinWords(c.ID, nonEmpty(cleanLine(c.Title), name))
		if sev := f.checkSeverity(); sev != "" {
			s += " (" + sev + ")"
		}
		return s
	}
	return name
}

// summary says on one line what went wrong.
func (f *finding) summary() string {
	t, a := f.Test, f.Assertion
	var what string
	switch f.Kind {
	case assertionFailed:
		what = joinWords(a.Target, a.Matcher, "failed")
		if m := cleanLine(a.Message); m != "" {
			what += ": " + m
		}
		// Expected and actual values say the most; failing those, the
		// first field of the failure does.
		var vals []string
		fields := failureFields(a.Failure)
		for _, fl := range fields {
			if fl.Name == "expected" || fl.Name == "actual" {
				vals = append(vals, fl.Name+" "+truncate(cleanLine(fl.Value), summaryValueRunes))
			}
		}
		if len(vals) == 0 && len(fields) > 0 {
			vals = append(vals, fields[0].Name+" "+truncate(cleanLine(fields[0].Value), summaryValueRunes))
		}
		if len(vals) > 0 {
			what += " (" + strings.Join(vals, ", ") + ")"
		}
	case assertionErrored:
		what = joinWords(a.Target, a.Matcher, "could not be judged:") + " " +
			nonEmpty(cleanLine(a.Error), "no error message")
	case testFailed:
		what = "failed"
		if t.Score != nil && t.Threshold != nil {
			what += " with score " + formatNumber(*t.Score) + " below the threshold " + formatNumber(*t.Threshold)
		}
	default:
		what = "could not be judged"
		if e := t.Error; e != nil {
			what += ": " + strings.TrimPrefix(cleanLine(e.Kind)+": "+cleanLine(e.Message), ": ")
		} else if t.Status != report.StatusErrored {
			what += ": unknown status " + strconv.Quote(cleanLine(string(t.Status)))
		}
	}
	return truncate(f.subject()+": "+what, summaryRunes)
}

// details lists what a reader needs beyond the summary, one item a line:
// the structured failure, errored assertions, the score, the check's
// source and the tail of the server's stderr.
func (f *finding) details() []string {
	t, a := f.Test, f.Assertion
	var out []string
	if a != nil && a.Status == report.StatusFailed {
		if a.Score != nil {
			out = append(out, "score: "+formatNumber(*a.Score))
		}
		for _, fl := range failureFields(a.Failure) {
			out = append(out, fl.Name+": "+fl.Value)
		}
	}
	if a != nil && a.Plugin != "" {
		out = append(out, "judged by: "+cleanLine(a.Plugin))
	}
	if f.Kind == testErrored {
		for i := range t.Assertions {
			if e := &t.Assertions[i]; e.Status == report.StatusErrored {
				out = append(out, joinWords("assertion", e.Target, e.Matcher, "could not be judged:")+" "+
					nonEmpty(cleanLine(e.Error), "no error message"))
			}
		}
	}
	if t.Score != nil && t.Threshold != nil {
		out = append(out, "test score: "+formatNumber(*t.Score)+" (threshold "+formatNumber(*t.Threshold)+")")
	}
	if c := t.Check; c != nil && (c.Revision != "" || c.Section != "") {
		out = append(out, "specification: "+joinWords(c.Revision, c.Section))
	}
	if tail := strings.TrimRight(clean(t.Stderr), "\n"); tail != "" {
		out = append(out, "server stderr (last lines):\n"+lastLines(tail, detailStderrLines))
	}
	return out
}

// nonEmpty returns s, or def when s is empty.
func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
