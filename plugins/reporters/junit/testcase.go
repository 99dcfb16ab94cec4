package main

import (
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// stderrLines is how many lines of a server's stderr a failure or error
// body repeats; the suite's <system-err> keeps all of it.
const stderrLines = 20

// statusOf returns the test's status, treating an unknown one as errored:
// a report that cannot be read must not pass silently.
func statusOf(t *report.Test) report.Status {
	switch t.Status {
	case report.StatusPassed, report.StatusFailed, report.StatusWarned, report.StatusSkipped, report.StatusDeferred:
		return t.Status
	}
	return report.StatusErrored
}

// caseName is the test's name on one line, falling back to its ID.
func caseName(t *report.Test) string {
	return nonEmpty(nonEmpty(textsafe.CleanLineTrim(t.Name), textsafe.CleanLineTrim(t.ID)), "(unnamed test)")
}

// buildCase renders one test.
func buildCase(t *report.Test, file, block string) caseXML {
	c := caseXML{
		Name:      caseName(t),
		Classname: nonEmpty(strings.Trim(file+"."+block, "."), runSuiteName),
		Time:      seconds(t.DurationMS),
	}
	switch statusOf(t) {
	case report.StatusFailed:
		c.Failure = failureDetail(t)
	case report.StatusErrored:
		c.Error = errorDetail(t)
	case report.StatusSkipped, report.StatusDeferred:
		// A deferred agent test is a skip whose message names the missing
		// key: JUnit has no element for "could not run for want of a key".
		msg := string(statusOf(t))
		if t.Error != nil {
			msg = nonEmpty(textsafe.CleanLineTrim(t.Error.Message), msg)
		}
		if t.Status == report.StatusDeferred && msg != string(report.StatusDeferred) {
			msg = "deferred: " + msg
		}
		c.Skipped = &detailXML{Message: msg}
	}
	return c
}

// warningText describes a warned test (a compliance test that broke only
// SHOULD requirements) for the suite's <system-out>: the test case itself
// passes, as the run does, and the schema gives a test case no element of
// its own for a warning. It lists each broken requirement with its
// structured failure, then the test's facts.
func warningText(t *report.Test) string {
	var b strings.Builder
	b.WriteString("=== " + caseName(t) + "\n")
	b.WriteString("warning: " + warningSummary(t) + "\n")
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status == report.StatusFailed || a.Status == report.StatusErrored {
			writeAssertion(&b, a)
		}
	}
	writeTestFacts(&b, t)
	return b.String()
}

// warningSummary names what a warned test broke on one line: the checks
// and their levels ("P01 (SHOULD)", or "T06, T07 (SHOULD)" for an entry
// running several), then its error message.
func warningSummary(t *report.Test) string {
	var ids []string
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status == report.StatusFailed && a.Check != nil {
			ids = append(ids, textsafe.CleanLineTrim(a.Check.ID))
		}
	}
	if len(ids) == 0 && t.Check != nil {
		ids = append(ids, textsafe.CleanLineTrim(t.Check.ID))
	}
	s := nonEmpty(strings.Join(ids, ", "), "compliance") + " (SHOULD)"
	if t.Error != nil {
		if m := textsafe.CleanLineTrim(t.Error.Message); m != "" {
			s += ": " + m
		}
	}
	return s
}

// failureDetail describes a failed test: the first failed assertion gives
// the message and type (its matcher); the body lists every failed
// assertion with its structured failure.
func failureDetail(t *report.Test) *detailXML {
	d := &detailXML{Type: "failed"}
	var b strings.Builder
	var failed int
	for i := range t.Assertions {
		a := &t.Assertions[i]
		if a.Status != report.StatusFailed && a.Status != report.StatusErrored {
			continue
		}
		failed++
		if failed == 1 {
			d.Message = failtext.AssertionLabel(a)
			d.Type = nonEmpty(textsafe.CleanLineTrim(a.Matcher), d.Type)
		}
		writeAssertion(&b, a)
	}
	if failed > 1 {
		d.Message += " (and " + strconv.Itoa(failed-1) + " more)"
	}
	if failed == 0 {
		d.Message = "test failed"
		if t.Eval != nil && !t.Eval.Passed {
			d.Message, d.Type = evalMessage(t.Eval), "eval"
		} else if t.Score != nil && t.Threshold != nil {
			d.Message = "score " + failtext.FormatNumber(*t.Score) + " is below the threshold " + failtext.FormatNumber(*t.Threshold)
			d.Type = "threshold"
		}
	}
	writeTestFacts(&b, t)
	d.Body = b.String()
	return d
}

// errorDetail describes a test that could not be judged.
func errorDetail(t *report.Test) *detailXML {
	d := &detailXML{Type: "errored", Message: "test errored"}
	if t.Status != report.StatusErrored {
		d.Type, d.Message = "unknown_status", "unknown test status "+strconv.Quote(textsafe.CleanLineTrim(string(t.Status)))
	}
	var b strings.Builder
	if t.Error != nil {
		d.Type = nonEmpty(textsafe.CleanLineTrim(t.Error.Kind), d.Type)
		d.Message = nonEmpty(textsafe.CleanLineTrim(t.Error.Message), d.Message)
		b.WriteString(d.Type + ": " + strings.TrimRight(textsafe.Clean(t.Error.Message), "\n") + "\n")
	}
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status == report.StatusErrored || a.Status == report.StatusFailed {
			writeAssertion(&b, a)
		}
	}
	writeTestFacts(&b, t)
	d.Body = b.String()
	return d
}

// writeAssertion writes a failed or errored assertion: its label, then
// its structured failure or error, one field a line.
func writeAssertion(b *strings.Builder, a *report.Assertion) {
	b.WriteString(failtext.AssertionLabel(a) + "\n")
	var fields []failtext.Field
	if a.Status == report.StatusErrored {
		msg := nonEmpty(strings.TrimRight(textsafe.Clean(a.Error), "\n"), "(no error message)")
		if p := textsafe.CleanLineTrim(a.Plugin); p != "" {
			msg += " [plugin " + p + "]"
		}
		fields = append(fields, failtext.Field{Name: "error", Value: msg})
	} else {
		if a.Score != nil {
			fields = append(fields, failtext.Field{Name: "score", Value: failtext.FormatNumber(*a.Score)})
		}
		fields = append(fields, failtext.Fields(a.Failure)...)
	}
	if a.Eval != nil {
		var eb strings.Builder
		writeEval(&eb, "", a.Eval)
		fields = append(fields, failtext.Field{Name: "eval", Value: strings.TrimRight(eb.String(), "\n")})
	}
	if c := a.Check; c != nil {
		// An entry running several checks: name the one this finding
		// belongs to, at the level of what was broken.
		fields = append(fields, failtext.Field{Name: "check", Value: checkLine(c)})
	}
	width := 0
	for _, f := range fields {
		width = max(width, min(len([]rune(f.Name)), 12))
	}
	for _, f := range fields {
		pad := strings.Repeat(" ", max(0, width-len([]rune(f.Name))))
		if strings.Contains(f.Value, "\n") {
			b.WriteString("  " + f.Name + ":\n" + indent(f.Value, "    ") + "\n")
			continue
		}
		b.WriteString("  " + f.Name + ": " + pad + f.Value + "\n")
	}
}

// writeTestFacts writes what applies to the whole test: its score against
// its threshold, its compliance check and the tail of the server's stderr.
func writeTestFacts(b *strings.Builder, t *report.Test) {
	writeEval(b, "", t.Eval)
	for i := range t.Assertions {
		// A model-graded assertion left unjudged for want of a key: not a
		// failure, but the reader should know it was not judged.
		if a := &t.Assertions[i]; a.Status == report.StatusDeferred {
			b.WriteString(failtext.AssertionLabel(a) + "\n  deferred: " + nonEmpty(textsafe.CleanLineTrim(a.Error), "no model key") + "\n")
		}
	}
	if t.Score != nil {
		line := "score: " + failtext.FormatNumber(*t.Score)
		if t.Threshold != nil {
			line += " (threshold " + failtext.FormatNumber(*t.Threshold) + ")"
		}
		b.WriteString(line + "\n")
	}
	if c := t.Check; c != nil {
		b.WriteString("check: " + checkLine(c) + "\n")
	}
	if tail := strings.TrimRight(textsafe.Clean(t.Stderr), "\n"); tail != "" {
		b.WriteString("server stderr (last lines):\n" + indent(textsafe.Tail(tail, stderrLines), "  ") + "\n")
	}
}

// checkLine names a compliance check on one line: id, title, then its
// severity, revision and section in parentheses.
func checkLine(c *report.Check) string {
	line := failtext.JoinWords(c.ID, c.Title)
	var where []string
	for _, s := range []string{c.Severity, c.Revision, c.Section} {
		if s = textsafe.CleanLineTrim(s); s != "" {
			where = append(where, s)
		}
	}
	if len(where) > 0 {
		line += " (" + strings.Join(where, ", ") + ")"
	}
	return line
}
