package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Display limits, in runes, for untrusted text on one line.
const (
	maxNameRunes   = 200
	maxReasonRunes = 160
	maxShortRunes  = 80
)

// docOptions shapes a document; the step summary uses smaller ones when
// the full document would not fit.
type docOptions struct {
	// details adds a collapsible block per failed or errored test.
	details bool
	// maxRows caps the table of tests that did not pass; negative means
	// no cap.
	maxRows int
	// note is shown under the heading when the document was shortened.
	note string
}

// fullDoc is the complete document, as written to the primary sink.
var fullDoc = docOptions{details: true, maxRows: -1}

// statusLabels are how statuses are shown, with a mark readers can scan.
var statusLabels = map[report.Status]string{
	report.StatusPassed:  "✅ passed",
	report.StatusFailed:  "❌ failed",
	report.StatusWarned:  "🟡 warned",
	report.StatusErrored: "⚠️ errored",
	report.StatusSkipped: "⏭️ skipped",
	// Deferred: an agent test whose model has no key.
	report.StatusDeferred: "⏸️ deferred",
}

// statusLabel returns the label of st, escaping statuses it does not know.
func statusLabel(st report.Status) string {
	if l, ok := statusLabels[st]; ok {
		return l
	}
	return "❔ " + inline(string(st), maxShortRunes)
}

// document renders run as GitHub-flavoured Markdown.
func document(run *report.Run, opt docOptions) string {
	var b strings.Builder
	writeHeader(&b, run)
	writeModels(&b, run)
	writeVersions(&b, run)
	writeTrials(&b, run)
	writeEvals(&b, run, opt.maxRows)
	writeLatency(&b, run)
	if opt.note != "" {
		b.WriteString("> " + opt.note + "\n\n")
	}
	writeNotPassed(&b, run, opt.maxRows)
	writeRollups(&b, run)
	writeRunErrors(&b, run)
	if opt.details {
		writeDetails(&b, run)
	}
	return b.String()
}

// verdict is the run's outcome in a few words with its mark. A run with
// errored tests or run-level errors could not be fully carried out, which
// outranks failures, as the exit code does; warnings (SHOULD requirements
// broken) do not fail the run, so such a run passed with warnings. A run a
// signal stopped is neither: it says interrupted, as its exit code (130)
// does, since calling it errored would send a reader hunting for a fault.
func verdict(run *report.Run) string {
	s := run.Summary
	switch {
	case run.Interrupted():
		return "⏹️ mcptest: interrupted"
	case s.Errored > 0 || len(run.Errors) > 0 || run.ExitCode >= 2:
		return "⚠️ mcptest: errored"
	case s.Failed > 0 || run.ExitCode == 1:
		return "❌ mcptest: failed"
	case s.Total == 0:
		return "⚪ mcptest: no tests ran"
	case s.Warned > 0:
		return "✅ mcptest: passed with warnings"
	case s.Deferred > 0:
		return fmt.Sprintf("✅ mcptest: passed, %d deferred (no model key)", s.Deferred)
	}
	return "✅ mcptest: passed"
}

// runMS is the run's wall time in milliseconds.
func runMS(run *report.Run) float64 {
	if run.DurationMS > 0 {
		return run.DurationMS
	}
	return run.Summary.DurationMS
}

// seconds formats milliseconds as seconds.
func seconds(ms float64) string { return strconv.FormatFloat(ms/1000, 'f', 2, 64) + " s" }

// writeHeader writes the verdict heading, the one-line summary and the
// counts table.
func writeHeader(b *strings.Builder, run *report.Run) {
	s := run.Summary
	b.WriteString("## " + verdict(run) + "\n\n")
	warned := ""
	if s.Warned > 0 {
		warned = fmt.Sprintf("%d warned, ", s.Warned)
	}
	deferred := ""
	if s.Deferred > 0 {
		deferred = fmt.Sprintf(", %d deferred", s.Deferred)
	}
	line := fmt.Sprintf("%d passed, %d failed, %s%d errored, %d skipped%s of %d tests in %s",
		s.Passed, s.Failed, warned, s.Errored, s.Skipped, deferred, s.Total, seconds(runMS(run)))
	if run.Shard != nil {
		line += fmt.Sprintf(" · shard %d/%d", run.Shard.Index, run.Shard.Total)
	}
	if run.Partial != nil {
		line += " · ⚠️ " + run.Partial.Text()
	}
	if run.RunID != "" {
		line += " · run " + code(run.RunID, maxShortRunes, false)
	}
	if run.Tool.Name != "" {
		line += " · " + inline(run.Tool.Name+" "+run.Tool.Version, maxShortRunes)
	}
	b.WriteString(line + "\n\n")
	b.WriteString("| Passed | Failed | Warned | Errored | Skipped | Total | Duration |\n")
	b.WriteString("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(b, "| %d | %d | %d | %d | %d | %d | %s |\n\n", s.Passed, s.Failed, s.Warned, s.Errored, s.Skipped, s.Total, seconds(runMS(run)))
}

// notPassed returns the tests that did not pass cleanly: failed first,
// then errored, then warned, then skipped (and any unknown status), each
// in report order.
func notPassed(run *report.Run) []*report.Test {
	var out []*report.Test
	for _, st := range []report.Status{report.StatusFailed, report.StatusErrored, report.StatusWarned, ""} {
		for i := range run.Tests {
			t := &run.Tests[i]
			known := t.Status == report.StatusFailed || t.Status == report.StatusErrored || t.Status == report.StatusWarned ||
				t.Status == report.StatusPassed
			if t.Status == st || (st == "" && !known) {
				out = append(out, t)
			}
		}
	}
	return out
}

// writeNotPassed writes the table of tests that did not pass.
func writeNotPassed(b *strings.Builder, run *report.Run, maxRows int) {
	tests := notPassed(run)
	if len(tests) == 0 {
		return
	}
	fmt.Fprintf(b, "### Not passed (%d)\n\n", len(tests))
	b.WriteString("| Status | Test | Location | Reason |\n| --- | --- | --- | --- |\n")
	shown := tests
	if maxRows >= 0 && len(tests) > maxRows {
		shown = tests[:maxRows]
	}
	for _, t := range shown {
		name := inline(t.Name, maxNameRunes)
		if t.Check != nil && t.Check.Severity != "" {
			name += " (" + inline(t.Check.Severity, maxShortRunes) + ")"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", statusLabel(t.Status), name, code(location(t), maxNameRunes, true), reason(t))
	}
	if len(shown) < len(tests) {
		fmt.Fprintf(b, "\n… and %d more; see the full report.\n", len(tests)-len(shown))
	}
	b.WriteString("\n")
}

// location is "file:line", or the file alone when the line is unknown.
func location(t *report.Test) string {
	if t.Line > 0 {
		return t.File + ":" + strconv.Itoa(t.Line)
	}
	return t.File
}

// writeRollups writes the "Metric rollups" section when anything in the
// run has a score: each score's mean and count, then each matcher's
// assertion pass rate.
func writeRollups(b *strings.Builder, run *report.Run) {
	rows := rollups(run)
	if len(rows) == 0 {
		return
	}
	b.WriteString("### Metric rollups\n\n| Metric | Mean | Count |\n| --- | ---: | ---: |\n")
	for _, r := range rows {
		name := code("score", maxShortRunes, true) + " (test score)"
		switch {
		case r.Derived:
			name = code(r.Name, maxShortRunes, true) + " (derived metric)"
		case r.Assertion:
			name = code(r.Name, maxShortRunes, true) + " (assertion score)"
		}
		fmt.Fprintf(b, "| %s | %.3f | %d |\n", name, r.Mean(), r.Count)
	}
	b.WriteString("\n| Matcher | Passed | Failed | Errored | Pass rate |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, m := range matcherRates(run) {
		rate := "—"
		if m.Judged() > 0 {
			rate = strconv.FormatFloat(100*float64(m.Passed)/float64(m.Judged()), 'f', 0, 64) + "%"
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %s |\n", code(m.Matcher, maxShortRunes, true), m.Passed, m.Failed, m.Errored, rate)
	}
	b.WriteString("\n")
}

// writeRunErrors writes the problems of the run itself: run-level errors
// and servers that could not be started.
func writeRunErrors(b *strings.Builder, run *report.Run) {
	var failedServers []int
	for i, s := range run.Servers {
		if s.Error != "" {
			failedServers = append(failedServers, i)
		}
	}
	if len(run.Errors)+len(failedServers) == 0 {
		return
	}
	b.WriteString("### Run errors\n\n")
	for _, e := range run.Errors {
		who := "**" + inline(e.Source, maxShortRunes) + "**"
		if e.Name != "" {
			who += " " + code(e.Name, maxShortRunes, false)
		}
		b.WriteString("⚠️ " + who + ": " + inline(e.Message, maxReasonRunes*2) + "\n\n")
		if strings.TrimSpace(textsafe.Clean(e.StderrTail)) != "" {
			b.WriteString(codeBlock("text", lastLines(truncateLines(e.StderrTail), stderrLines)) + "\n")
		}
	}
	for _, i := range failedServers {
		s := run.Servers[i]
		b.WriteString("⚠️ **server** " + code(report.ServerLabel(run.Servers, i), maxShortRunes, false) + ": " + inline(s.Error, maxReasonRunes*2) + "\n\n")
	}
}
