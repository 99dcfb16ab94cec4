package main

import (
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// maxNameRunes caps a test point description; a TAP line is read by people
// in CI logs.
const maxNameRunes = 300

// testPoint renders one test as a TAP 14 test point, with its diagnostic
// block when it failed, errored or warned:
//
//	ok 1 - name
//	not ok 2 - name
//	ok 3 - name # SKIP reason
//	ok 4 - name            (a warning: passes, as the run does; the
//	  ---                   diagnostic says what SHOULD requirement
//	  severity: warning     was broken)
func testPoint(n int, t *report.Test) string {
	name := t.Name
	if strings.TrimSpace(name) == "" {
		name = t.ID
	}
	if strings.TrimSpace(name) == "" {
		name = "(unnamed test)"
	}
	line := "ok " + strconv.Itoa(n) + " - " + escapeText(name)
	switch t.Status {
	case report.StatusPassed:
		if t.Eval != nil {
			// A passing grade keeps its score and how it was reached.
			return endLine(line) + yamlBlock([]kv{{"message", "eval passed"}, {"severity", "comment"}, {"eval", evalPairs(t.Eval)}})
		}
		return endLine(line)
	case report.StatusWarned:
		return endLine(line) + yamlBlock(diagnostics(t))
	case report.StatusSkipped, report.StatusDeferred:
		// A deferred agent test is a SKIP whose reason names the missing
		// key ("deferred: ..."), never an ok without a directive.
		line += " # SKIP"
		reason := skipReason(t)
		if t.Status == report.StatusDeferred {
			reason = strings.TrimSuffix("deferred: "+reason, ": ")
		}
		if reason != "" {
			line += " " + escapeText(reason)
		}
		return endLine(line)
	}
	return endLine("not "+line) + yamlBlock(diagnostics(t))
}

// skipReason is why a test was skipped, when the report says.
func skipReason(t *report.Test) string {
	if t.Error == nil {
		return ""
	}
	return t.Error.Message
}

// escapeText makes untrusted text safe on a test point line: escape
// sequences and control characters go, line breaks become spaces, and
// "\" and "#" are escaped as TAP 14 requires, so nothing in a name can end
// the description early or be read as a directive.
func escapeText(s string) string {
	s = textsafe.Truncate(textsafe.CleanLine(s), maxNameRunes)
	s = strings.TrimSpace(strings.NewReplacer(`\`, `\\`, `#`, `\#`).Replace(s))
	// TAP 14 reads a description ending in "{" as the start of a buffered
	// subtest, so a trailing brace is written as its full-width twin, which
	// looks the same to a reader and parses as plain text.
	if strings.HasSuffix(s, "{") {
		s = strings.TrimSuffix(s, "{") + "\uff5b"
	}
	return s
}

// endLine terminates a test point line.
func endLine(line string) string { return line + "\n" }
