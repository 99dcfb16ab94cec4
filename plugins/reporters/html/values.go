package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/jsontext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
)

// knownFields are the common fields of a structured failure, shown first
// and in this order; other fields follow in key order.
var knownFields = []string{"expected", "actual", "diff", "path", "note"}

// textFields hold prose, shown without JSON quoting when they are strings.
var textFields = map[string]bool{"diff": true, "path": true, "note": true}

// fieldView is one labelled value of a structured failure. Exactly one of
// DiffLines (a unified diff), Inline (a character diff) and Text is used.
type fieldView struct {
	Label     string
	Text      string
	DiffLines []diffLine
	Inline    []diffPart
}

// diffLine is one line of a unified diff with its class: add, del, hunk
// or none.
type diffLine struct {
	Class, Text string
}

// diffPart is a piece of a character diff: Kind is "del", "ins" or "".
type diffPart struct {
	Kind, Text string
}

// failureFields decodes a structured failure into display fields: the
// assertion's score first when it has one, then the known fields, then the
// rest, each JSON value pretty-printed. A failure that is not a JSON object
// is shown whole.
func failureFields(raw json.RawMessage, score *float64) []fieldView {
	var out []fieldView
	if score != nil {
		out = append(out, fieldView{Label: "score", Text: formatFloat(*score)})
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return out
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return append(out, fieldView{Label: "failure", Text: prettyJSON(raw)})
	}
	var extra []string
	for k := range obj {
		if !slices.Contains(knownFields, k) && !(k == "score" && score != nil) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range append(slices.Clone(knownFields), extra...) {
		v, ok := obj[k]
		if !ok {
			continue
		}
		f := fieldView{Label: textsafe.Clean(k)}
		var s string
		switch {
		case textFields[k] && json.Unmarshal(v, &s) == nil:
			s = textsafe.Clean(s)
			if k == "diff" {
				f.DiffLines, f.Inline = parseDiff(s)
			}
			f.Text = s
		default:
			f.Text = prettyJSON(v)
		}
		out = append(out, f)
	}
	return out
}

// prettyJSON indents a JSON value for reading, keeping numbers exactly as
// written and showing characters rather than \u escapes ("<b>", which the
// template escapes, not "\u003cb\u003e"); text that is not JSON is shown
// as it is. Either way it is cleaned of control characters.
func prettyJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, jsontext.Readable(bytes.TrimSpace(raw)), "", "  "); err != nil {
		return textsafe.Clean(string(raw))
	}
	return textsafe.Clean(buf.String())
}

// frameBody is a frame's data for display: pretty JSON, or for a truncated
// frame the prefix it kept (a JSON string) as plain text.
func frameBody(data json.RawMessage, truncated bool) string {
	if truncated {
		var prefix string
		if json.Unmarshal(data, &prefix) == nil {
			return textsafe.Clean(prefix) + "…"
		}
	}
	return prettyJSON(data)
}

// parseDiff splits a diff for colouring: a unified diff (from "--- " or
// "@@") into classed lines, a one-line character diff with [-removed-] and
// {+added+} markers into parts. Anything else is left as text (both nil).
func parseDiff(s string) ([]diffLine, []diffPart) {
	if strings.Contains(s, "\n") {
		if !strings.HasPrefix(s, "--- ") && !strings.HasPrefix(s, "@@") {
			return nil, nil
		}
		var lines []diffLine
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			class := ""
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "@@"):
				class = "hunk"
			case strings.HasPrefix(l, "+"):
				class = "add"
			case strings.HasPrefix(l, "-"):
				class = "del"
			}
			if l == "" {
				l = " "
			}
			lines = append(lines, diffLine{Class: class, Text: l})
		}
		return lines, nil
	}
	if !strings.Contains(s, "[-") && !strings.Contains(s, "{+") {
		return nil, nil
	}
	var parts []diffPart
	for s != "" {
		del, ins := strings.Index(s, "[-"), strings.Index(s, "{+")
		start, open, closing, kind := del, "[-", "-]", "del"
		if del < 0 || (ins >= 0 && ins < del) {
			start, open, closing, kind = ins, "{+", "+}", "ins"
		}
		if start < 0 {
			parts = append(parts, diffPart{Text: s})
			break
		}
		end := strings.Index(s[start+len(open):], closing)
		if end < 0 {
			parts = append(parts, diffPart{Text: s})
			break
		}
		if start > 0 {
			parts = append(parts, diffPart{Text: s[:start]})
		}
		parts = append(parts, diffPart{Kind: kind, Text: s[start+len(open) : start+len(open)+end]})
		s = s[start+len(open)+end+len(closing):]
	}
	return nil, parts
}

// formatFloat shows a score or threshold without trailing zeros.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
