// Package failtext turns the parts of a test report that explain a failure
// (a matcher's structured failure, an assertion, a score) into cleaned,
// length-capped text for reporters that show them as plain text.
//
// Everything it returns has been through [textsafe.Clean]; names and
// labels are on one line with their ends trimmed.
package failtext

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Limits for values taken from structured failures.
const (
	// MaxValueRunes caps one rendered failure value.
	MaxValueRunes = 1000
	// MaxDecodeBytes is the largest value decoded for re-encoding; larger
	// values are shown from a prefix of their raw text.
	MaxDecodeBytes = 1 << 20
)

// Field is one entry of a structured failure, ready to show.
type Field struct {
	Name, Value string
}

// knownFields are the common failure fields, shown first and in this
// order; other fields follow sorted by name.
var knownFields = []string{"expected", "actual", "diff", "path", "note"}

// proseFields hold text shown without JSON quoting.
var proseFields = map[string]bool{"diff": true, "path": true, "note": true}

// Fields turns a matcher's structured failure into cleaned name and value
// pairs: the known fields (expected, actual, diff, path, note) first, the
// others sorted by name. String values of diff, path and note are shown
// as text (multi-line, cut to [MaxValueRunes]); every other value as
// compact JSON, see [RenderValue]. A failure that is not a JSON object
// becomes one "failure" field; an empty or null one gives nil.
func Fields(raw json.RawMessage) []Field {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return []Field{{"failure", RenderValue(raw)}}
	}
	var order []string
	for _, k := range knownFields {
		if _, ok := obj[k]; ok {
			order = append(order, k)
		}
	}
	var extra []string
	for k := range obj {
		if !slices.Contains(knownFields, k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	out := make([]Field, 0, len(obj))
	for _, k := range append(order, extra...) {
		v := obj[k]
		var s string
		if proseFields[k] && json.Unmarshal(v, &s) == nil {
			out = append(out, Field{textsafe.CleanLineTrim(k), textsafe.Truncate(strings.TrimRight(textsafe.Clean(s), "\n"), MaxValueRunes)})
			continue
		}
		out = append(out, Field{textsafe.CleanLineTrim(k), RenderValue(v)})
	}
	return out
}

// RenderValue shows a JSON value compactly on one line, cleaned and cut to
// [MaxValueRunes]. Text that is not JSON, or a value over
// [MaxDecodeBytes], is shown from a prefix of its raw text.
func RenderValue(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if text, ok := CompactJSON(raw); ok {
		return textsafe.Truncate(textsafe.Clean(text), MaxValueRunes)
	}
	prefix := raw[:min(len(raw), 4*MaxValueRunes)]
	text := textsafe.Truncate(textsafe.CleanLineTrim(string(prefix)), MaxValueRunes)
	if len(prefix) < len(raw) {
		text += "… (+" + strconv.Itoa(len(raw)-len(prefix)) + " bytes)"
	}
	return text
}

// CompactJSON re-encodes a JSON value on one line, keeping numbers exactly
// as written and <, > and & unescaped. It reports false for text that is
// not a JSON value and for values over [MaxDecodeBytes]. The result is not
// cleaned.
func CompactJSON(raw json.RawMessage) (string, bool) {
	if len(raw) > MaxDecodeBytes {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "", false
	}
	return strings.TrimSuffix(buf.String(), "\n"), true
}

// AssertionLabel names an assertion on one line: its target and matcher,
// then its message when it has one ("result exact: says hi").
func AssertionLabel(a *report.Assertion) string {
	s := JoinWords(a.Target, a.Matcher)
	if m := textsafe.CleanLineTrim(a.Message); m != "" {
		s += ": " + m
	}
	return s
}

// JoinWords cleans each part to one trimmed line and joins the non-empty
// ones with spaces.
func JoinWords(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = textsafe.CleanLineTrim(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// FormatNumber writes a float the shortest way that reads back exactly,
// without an exponent; NaN and infinities, which no report format can
// hold, become "0".
func FormatNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
