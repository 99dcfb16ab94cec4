package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeDetails writes a collapsible block per failed or errored test with
// everything needed to see why: the failed assertions and their structured
// failures, the error, and the server's stderr tail.
func writeDetails(b *strings.Builder, run *report.Run) {
	var tests []*report.Test
	for _, t := range notPassed(run) {
		if t.Status != report.StatusSkipped && t.Status != report.StatusDeferred {
			tests = append(tests, t)
		}
	}
	if len(tests) == 0 {
		return
	}
	b.WriteString("### Failure details\n\n")
	for _, t := range tests {
		writeTestDetails(b, t)
	}
}

// writeTestDetails writes one test's <details> block. The summary line is
// HTML (Markdown is not parsed there); the body, after a blank line, is
// Markdown again.
func writeTestDetails(b *strings.Builder, t *report.Test) {
	label, ok := statusLabels[t.Status]
	if !ok {
		label = "❔ " + htmlText(string(t.Status), maxShortRunes)
	}
	b.WriteString("<details>\n<summary>" + label + ": " + htmlText(t.Name, maxNameRunes))
	if loc := location(t); loc != "" {
		b.WriteString(" — " + htmlText(loc, maxNameRunes))
	}
	b.WriteString("</summary>\n\n")

	var about []string
	if t.Server != "" {
		about = append(about, "server "+code(t.Server, maxShortRunes, false))
	}
	if t.Tool != "" {
		about = append(about, "tool "+code(t.Tool, maxShortRunes, false))
	}
	if t.ProtocolVersion != "" {
		about = append(about, "protocol "+code(t.ProtocolVersion, maxShortRunes, false))
	}
	if t.Score != nil {
		s := fmt.Sprintf("score %g", *t.Score)
		if t.Threshold != nil {
			s += fmt.Sprintf(" (threshold %g)", *t.Threshold)
		}
		about = append(about, s)
	}
	if t.ID != "" {
		about = append([]string{"Test " + code(t.ID, maxNameRunes, false)}, about...)
	}
	if len(about) > 0 {
		b.WriteString(strings.Join(about, " · ") + "\n\n")
	}
	if c := t.Check; c != nil {
		b.WriteString("Compliance check " + code(c.ID, maxShortRunes, false) + " (" + inline(c.Severity, maxShortRunes))
		if c.Revision != "" {
			b.WriteString(", " + inline(strings.TrimSpace(c.Revision+" "+c.Section), maxShortRunes))
		}
		b.WriteString("): " + inline(c.Title, maxReasonRunes) + "\n\n")
	}
	writeEvalDetails(b, t.Eval)
	for i := range t.Assertions {
		a := &t.Assertions[i]
		switch a.Status {
		case report.StatusFailed, report.StatusErrored:
			writeAssertion(b, a)
			writeEvalDetails(b, a.Eval)
		case report.StatusDeferred:
			// Not judged for want of a model key: say so, with the key.
			fmt.Fprintf(b, "**⏸️ assertion %d:** %s › %s — deferred: %s\n\n", a.Index+1, code(a.Target, maxNameRunes, false),
				code(a.Matcher, maxShortRunes, false), inline(a.Error, maxReasonRunes))
		}
	}
	if t.Error != nil {
		b.WriteString("**Error:** " + errorText(t.Error) + "\n\n")
	}
	if strings.TrimSpace(textsafe.Clean(t.Stderr)) != "" {
		b.WriteString("**Server stderr** (last lines):\n\n")
		b.WriteString(codeBlock("text", lastLines(truncateLines(t.Stderr), stderrLines)) + "\n")
	}
	b.WriteString("</details>\n\n")
}

// writeAssertion writes one failed or errored assertion: a line naming it,
// then its structured failure or its error in a code block.
func writeAssertion(b *strings.Builder, a *report.Assertion) {
	mark := "✗"
	if a.Status == report.StatusErrored {
		mark = "!"
	}
	fmt.Fprintf(b, "**%s assertion %d:** %s › %s", mark, a.Index+1, code(a.Target, maxNameRunes, false), code(a.Matcher, maxShortRunes, false))
	if a.Message != "" {
		b.WriteString(" — " + inline(a.Message, maxReasonRunes))
	}
	if a.Plugin != "" {
		b.WriteString(" (" + inline(a.Plugin, maxShortRunes) + ")")
	}
	b.WriteString("\n\n")
	if a.Status == report.StatusErrored {
		msg := a.Error
		if msg == "" {
			msg = "(no error message)"
		}
		b.WriteString(codeBlock("text", "error: "+truncateLines(msg)) + "\n")
		return
	}
	var text strings.Builder
	var diffs []string
	fields := failureFields(a.Failure, a.Score)
	width := 0
	for _, f := range fields {
		width = max(width, len([]rune(oneLine(f.label))))
	}
	for _, f := range fields {
		label := textsafe.Truncate(oneLine(f.label), maxShortRunes)
		value := strings.TrimRight(truncateLines(f.text), "\n")
		if f.label == "diff" && isUnifiedDiff(value) {
			diffs = append(diffs, value)
			continue
		}
		if strings.Contains(value, "\n") {
			text.WriteString(label + ":\n  " + strings.ReplaceAll(capLines(value, maxBlockLines), "\n", "\n  ") + "\n")
			continue
		}
		text.WriteString(label + ":" + strings.Repeat(" ", max(width-len([]rune(label)), 0)+1) + value + "\n")
	}
	if text.Len() > 0 {
		b.WriteString(codeBlock("text", text.String()) + "\n")
	}
	for _, d := range diffs {
		b.WriteString(codeBlock("diff", capLines(d, maxBlockLines)) + "\n")
	}
}

// truncateLines cleans untrusted multi-line text and cuts each line to
// maxValueRunes.
func truncateLines(s string) string {
	lines := strings.Split(textsafe.Clean(s), "\n")
	for i, l := range lines {
		lines[i] = textsafe.Truncate(l, maxValueRunes)
	}
	return strings.Join(lines, "\n")
}
