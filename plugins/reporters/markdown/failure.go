package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/jsontext"
	"github.com/mcptest/mcptest/sdk/report"
)

// Limits for structured failures.
const (
	// maxValueRunes caps one line of a value in a failure block.
	maxValueRunes = 1000
	// maxBlockLines caps a multi-line value such as a diff.
	maxBlockLines = 60
	// stderrLines is how many trailing stderr lines are shown.
	stderrLines = 20
)

// knownFields are the common fields of a structured failure, shown first
// and in this order; other fields follow in key order.
var knownFields = []string{"expected", "actual", "diff", "path", "note"}

// textFields hold prose, shown without JSON quoting when they are strings.
var textFields = map[string]bool{"diff": true, "path": true, "note": true}

// field is one labelled value of a structured failure, as display text.
type field struct {
	label, text string
}

// failureFields decodes a structured failure into display fields: the
// assertion's score first when it has one, then the known fields, then the
// rest. A failure that is not a JSON object is shown whole.
func failureFields(raw json.RawMessage, score *float64) []field {
	var out []field
	if score != nil {
		out = append(out, field{"score", strconv.FormatFloat(*score, 'f', -1, 64)})
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return out
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return append(out, field{"failure", jsonText(raw)})
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if !slices.Contains(knownFields, k) && !(k == "score" && score != nil) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range append(slices.Clone(knownFields), keys...) {
		v, ok := obj[k]
		if !ok {
			continue
		}
		var s string
		if textFields[k] && json.Unmarshal(v, &s) == nil {
			out = append(out, field{k, s})
		} else {
			out = append(out, field{k, jsonText(v)})
		}
	}
	return out
}

// jsonText shows a JSON value compactly, as the matcher sent it but with
// characters rather than \u escapes ("<b>", not "\u003cb\u003e"; the
// caller escapes them for Markdown); invalid JSON is shown as raw text.
func jsonText(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, jsontext.Readable(raw)); err != nil {
		return string(raw)
	}
	return buf.String()
}

// reason is the first reason a test did not pass, for the summary table,
// already escaped for a table cell.
func reason(t *report.Test) string {
	if t.Status == report.StatusErrored || t.Status == report.StatusSkipped || t.Status == report.StatusDeferred {
		if t.Error != nil {
			return errorText(t.Error)
		}
	}
	for i := range t.Assertions {
		a := &t.Assertions[i]
		if a.Status != report.StatusFailed && a.Status != report.StatusErrored {
			continue
		}
		out := code(a.Target, maxShortRunes, true) + " › " + code(a.Matcher, maxShortRunes, true)
		if a.Message != "" {
			out += ": " + inline(a.Message, maxShortRunes)
		}
		if a.Status == report.StatusErrored {
			return out + " — error: " + inline(a.Error, maxReasonRunes)
		}
		if detail := failureSummary(a.Failure); detail != "" {
			out += " — " + detail
		} else if a.Eval != nil {
			out += " — " + evalReason(a.Eval)
		}
		return out
	}
	if t.Eval != nil && !t.Eval.Passed {
		return evalReason(t.Eval)
	}
	if t.Score != nil && t.Threshold != nil && *t.Score < *t.Threshold {
		return "score " + strconv.FormatFloat(*t.Score, 'f', -1, 64) + " below the threshold " + strconv.FormatFloat(*t.Threshold, 'f', -1, 64)
	}
	if t.Error != nil {
		return errorText(t.Error)
	}
	return ""
}

// errorText is "kind: message", escaped for a table cell.
func errorText(e *report.Error) string {
	msg := e.Message
	if e.Kind != "" {
		msg = e.Kind + ": " + msg
	}
	return inline(msg, maxReasonRunes)
}

// failureSummary sums a structured failure up in a few words: expected and
// actual, or the note, or the first message of a list of errors.
func failureSummary(raw json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	exp, hasExp := obj["expected"]
	act, hasAct := obj["actual"]
	if hasExp && hasAct {
		return "expected " + code(jsonText(exp), maxShortRunes, true) + ", got " + code(jsonText(act), maxShortRunes, true)
	}
	var note string
	if json.Unmarshal(obj["note"], &note) == nil && note != "" {
		return inline(note, maxReasonRunes)
	}
	var errs []struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(obj["errors"], &errs) == nil && len(errs) > 0 && errs[0].Message != "" {
		return inline(errs[0].Message, maxReasonRunes)
	}
	return ""
}

// isUnifiedDiff reports a multi-line diff in unified format, shown in a
// diff block so GitHub colours it.
func isUnifiedDiff(s string) bool {
	return strings.Contains(s, "\n") && (strings.HasPrefix(s, "--- ") || strings.HasPrefix(s, "@@"))
}
