package main

// This file is kept identical in plugins/reporters/junit, sarif and gitlab:
// each reporter is its own main package, so they cannot share it by import.
// clean follows plugins/reporters/pretty/sanitize.go. Change every copy
// together until the code moves to a shared package.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk/report"
)

// Text from a server or a plugin (names, stderr, failure values, error
// messages) is untrusted: clean removes whatever could hide, reorder or
// forge text in a viewer, or make the document invalid.

const esc = 0x1b

// clean strips escape sequences and unsafe characters from s: ANSI/VT
// sequences (CSI, OSC, DCS, SOS, PM, APC and the two-byte forms, 7- and
// 8-bit), every other C0 and C1 control except newline and tab, DEL,
// carriage returns, the bidirectional overrides and isolates, the line and
// paragraph separators, and the noncharacters U+FFFE and U+FFFF, which XML
// 1.0 forbids. Invalid UTF-8 becomes U+FFFD.
func clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			i += max(size, 1)
		case r == esc:
			i = skipEscape(s, i+size)
		case r == 0x9b: // 8-bit CSI
			i = skipCSI(s, i+size)
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
			i += size
		case isUnsafe(r):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// cleanLine is clean for text that must stay on one line (names, titles,
// attribute-like values): line breaks and tabs become spaces and the ends
// are trimmed.
func cleanLine(s string) string {
	s = clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return strings.TrimSpace(s)
}

// isPlain reports whether s is printable ASCII plus newline and tab.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

// isUnsafe reports runes that never reach a report.
func isUnsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r == 0x2028, r == 0x2029, r == 0xfffe, r == 0xffff:
		return true
	}
	return false
}

// skipEscape skips the rest of a sequence begun by ESC; i is the index
// after the ESC. It returns the index after the sequence.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f { // nF intermediates
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips a control sequence's parameters, intermediates and final
// byte; i is the index after the introducer.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a control string through its terminator (BEL, ESC \ or
// the 8-bit ST); an unterminated string runs to the end.
func skipString(s string, i int) int {
	for i < len(s) {
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == esc && i+1 < len(s) && s[i+1] == '\\' {
			return i + 2
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x9c {
			return i + size
		}
		i += size
	}
	return i
}

// truncate cuts s to at most n runes, saying how much was left out.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + fmt.Sprintf("… (+%d chars)", len(r)-n)
}

// lastLines returns at most the last n lines of s, without a trailing
// newline.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// formatNumber writes a float the shortest way that reads back exactly.
func formatNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Limits for values taken from structured failures.
const (
	// maxValueRunes caps one rendered failure value.
	maxValueRunes = 1000
	// maxDecodeBytes is the largest value decoded for re-encoding; larger
	// values are shown from a prefix of their raw text.
	maxDecodeBytes = 1 << 20
)

// field is one entry of a structured failure, ready to show.
type field struct {
	Name, Value string
}

// knownFields are the common failure fields, shown first and in this
// order; other fields follow sorted by name.
var knownFields = []string{"expected", "actual", "diff", "path", "note"}

// proseFields hold text shown without JSON quoting.
var proseFields = map[string]bool{"diff": true, "path": true, "note": true}

// failureFields turns a matcher's structured failure into cleaned name and
// value pairs. A failure that is not a JSON object becomes one "failure"
// field.
func failureFields(raw json.RawMessage) []field {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return []field{{"failure", renderValue(raw)}}
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
	out := make([]field, 0, len(obj))
	for _, k := range append(order, extra...) {
		v := obj[k]
		var s string
		if proseFields[k] && json.Unmarshal(v, &s) == nil {
			out = append(out, field{cleanLine(k), truncate(strings.TrimRight(clean(s), "\n"), maxValueRunes)})
			continue
		}
		out = append(out, field{cleanLine(k), renderValue(v)})
	}
	return out
}

// renderValue shows a JSON value compactly on one line, cleaned and cut.
func renderValue(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) <= maxDecodeBytes {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if enc.Encode(v) == nil {
				return truncate(clean(strings.TrimSuffix(buf.String(), "\n")), maxValueRunes)
			}
		}
	}
	prefix := raw[:min(len(raw), 4*maxValueRunes)]
	text := truncate(cleanLine(string(prefix)), maxValueRunes)
	if len(prefix) < len(raw) {
		text += "… (+" + strconv.Itoa(len(raw)-len(prefix)) + " bytes)"
	}
	return text
}

// assertionLabel names an assertion on one line: its target and matcher,
// then its message when it has one.
func assertionLabel(a *report.Assertion) string {
	s := joinWords(a.Target, a.Matcher)
	if m := cleanLine(a.Message); m != "" {
		s += ": " + m
	}
	return s
}

// joinWords cleans each part to one line and joins the non-empty ones
// with spaces.
func joinWords(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = cleanLine(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}
