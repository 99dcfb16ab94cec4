package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Failure display limits.
const (
	// maxValueRunes caps a rendered JSON value.
	maxValueRunes = 200
	// maxBlockLines caps a multi-line field such as a diff.
	maxBlockLines = 40
	// maxLabelWidth caps the padding of field labels.
	maxLabelWidth = 12
)

// knownFields are the common failure fields, shown first and in this order;
// any other field follows in key order.
var knownFields = []string{"expected", "actual", "diff", "path", "note"}

// textFields hold prose, shown without JSON quoting.
var textFields = map[string]bool{"diff": true, "path": true, "note": true}

// writeAssertion writes a failed or errored assertion and its details.
func (r *renderer) writeAssertion(b *strings.Builder, a *report.Assertion) {
	r.writeAssertionAt(b, a, indent1)
}

// writeAssertionAt writes a failed or errored assertion with its header at
// ind and its details one level deeper: the failure's fields, then the
// branches of a composition and the members of an assert-set that did not
// pass (nested.go).
func (r *renderer) writeAssertionAt(b *strings.Builder, a *report.Assertion, ind string) {
	mark, st := "✗", red
	if a.Status == report.StatusErrored {
		mark, st = "!", yellow
	}
	b.WriteString(ind + r.p.paint(st, mark) + " ")
	if a.Matcher == setMatcher {
		b.WriteString(r.p.line(bold, setMatcher))
		if a.Name != "" {
			b.WriteString(" " + r.p.line(plain, textsafe.Truncate(a.Name, maxLineRunes)))
		}
	} else {
		b.WriteString(r.p.line(plain, textsafe.Truncate(a.Target, maxLineRunes)))
		b.WriteString(" " + r.p.paint(dim, "›") + " " + r.p.line(bold, textsafe.Truncate(a.Matcher, maxLineRunes)))
	}
	if a.Message != "" {
		b.WriteString(r.p.paint(dim, " — ") + r.p.line(plain, textsafe.Truncate(a.Message, maxLineRunes)))
	}
	b.WriteString("\n")

	inner := ind + indentStep
	if a.Status == report.StatusErrored {
		msg := a.Error
		if msg == "" {
			msg = "(no error message)"
		}
		if a.Plugin != "" {
			msg += " [plugin " + a.Plugin + "]"
		}
		r.writeField(b, inner, "error", msg, len("error"))
		return
	}
	r.writeFailure(b, a.Failure, a.Score, inner)
	r.writeMembers(b, a, inner)
}

// writeFailure writes the fields of a structured failure at ind, preceded
// by the assertion's score when it has one. A composition's branches are
// drawn as a tree.
func (r *renderer) writeFailure(b *strings.Builder, raw json.RawMessage, score *float64, ind string) {
	var fields map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
			r.writeField(b, ind, "failure", renderValue(raw), len("failure"))
			return
		}
	}
	branches, hasBranches := fields[branchesField]
	if hasBranches {
		delete(fields, branchesField)
	}
	var order []string
	if score != nil {
		if fields == nil {
			fields = map[string]json.RawMessage{}
		}
		if _, dup := fields["score"]; !dup {
			fields["score"] = json.RawMessage(formatScore(*score))
			order = append(order, "score")
		}
	}
	for _, k := range knownFields {
		if _, ok := fields[k]; ok {
			order = append(order, k)
		}
	}
	var extra []string
	for k := range fields {
		if !slices.Contains(knownFields, k) && !slices.Contains(order, k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	order = append(order, extra...)

	width := 0
	for _, k := range order {
		width = max(width, min(len(textsafe.CleanLine(k)), maxLabelWidth))
	}
	for _, k := range order {
		v := fields[k]
		if textFields[k] {
			var s string
			if json.Unmarshal(v, &s) == nil {
				if k == "diff" {
					r.writeDiff(b, s, width, ind)
				} else {
					r.writeField(b, ind, k, s, width)
				}
				continue
			}
		}
		r.writeField(b, ind, k, renderValue(v), width)
	}
	if hasBranches {
		r.writeBranches(b, branches, ind, 0)
	}
}

// writeField writes "label: text", or the label and an indented block when
// the text spans lines. The text is untrusted.
func (r *renderer) writeField(b *strings.Builder, ind, label, text string, width int) {
	label = textsafe.Truncate(textsafe.CleanLine(label), maxLabelWidth)
	head := ind + r.p.paint(dim, label+":")
	text = strings.TrimRight(textsafe.Clean(text), "\n")
	if !strings.Contains(text, "\n") {
		pad := strings.Repeat(" ", max(width-len([]rune(label)), 0)+1)
		b.WriteString(head + pad + r.p.line(plain, textsafe.Truncate(text, maxLineRunes)) + "\n")
		return
	}
	b.WriteString(head + "\n")
	for _, l := range capLines(strings.Split(text, "\n"), maxBlockLines) {
		b.WriteString(ind + "  " + r.p.line(plain, textsafe.Truncate(l, maxLineRunes)) + "\n")
	}
}

// writeDiff writes a diff, colouring added and removed lines.
func (r *renderer) writeDiff(b *strings.Builder, diff string, width int, ind string) {
	diff = strings.TrimRight(textsafe.Clean(diff), "\n")
	if !strings.Contains(diff, "\n") {
		r.writeField(b, ind, "diff", diff, width)
		return
	}
	b.WriteString(ind + r.p.paint(dim, "diff:") + "\n")
	for _, l := range capLines(strings.Split(diff, "\n"), maxBlockLines) {
		st := plain
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "@@"):
			st = dim
		case strings.HasPrefix(l, "+"):
			st = green
		case strings.HasPrefix(l, "-"):
			st = red
		}
		b.WriteString(ind + "  " + r.p.line(st, textsafe.Truncate(l, maxLineRunes)) + "\n")
	}
}

// renderValue shows a JSON value compactly on one line, long values cut.
// Values over failtext.MaxDecodeBytes, and text that is not JSON, are
// shown from a prefix of their raw text. The result is not yet cleaned:
// writeField cleans it.
func renderValue(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if text, ok := failtext.CompactJSON(raw); ok {
		return textsafe.Truncate(text, maxValueRunes)
	}
	prefix := raw[:min(len(raw), 4*maxValueRunes)]
	text := strings.Join(strings.Fields(string(prefix)), " ")
	if len(prefix) < len(raw) {
		return textsafe.Truncate(text, maxValueRunes) + "… (+" + strconv.Itoa(len(raw)-len(prefix)) + " bytes)"
	}
	return textsafe.Truncate(text, maxValueRunes)
}
