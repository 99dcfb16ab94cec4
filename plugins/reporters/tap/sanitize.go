package main

// This file is a verbatim copy of the sanitizer in
// plugins/reporters/pretty/sanitize.go (clean and its helpers), kept
// identical so the two can move into one shared package without a
// behaviour change. TAP is read in CI logs and terminals, and TAP
// consumers print YAML diagnostics as they decode them, so untrusted text
// needs the same treatment here as in the pretty reporter.

import (
	"strings"
	"unicode/utf8"
)

const esc = 0x1b

// clean strips terminal control sequences and control characters from s.
// It removes ANSI/VT escape sequences (CSI, OSC, DCS, SOS, PM, APC and the
// two-byte forms, in both 7-bit and 8-bit encodings), every other C0 and
// C1 control except newline and tab, DEL, carriage returns, and the
// Unicode bidirectional overrides and isolates. Invalid UTF-8 becomes
// U+FFFD.
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
		case isControl(r):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// cleanLine is clean for text shown inside a single line: newlines and
// tabs become spaces so the text cannot forge extra lines.
func cleanLine(s string) string {
	s = clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}

// isPlain reports whether s is printable ASCII (plus newline and tab), the
// common case that needs no work.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

// isControl reports runes that must never reach the terminal.
func isControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	}
	return false
}

// skipEscape skips the rest of a sequence that began with ESC; i is the
// index after the ESC. It returns the index after the sequence.
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
	// nF sequences: intermediate bytes, then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips the parameters, intermediates and final byte of a control
// sequence; i is the index after the introducer.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a control string up to and including its terminator:
// BEL, ESC \ or the 8-bit ST. An unterminated string runs to the end.
func skipString(s string, i int) int {
	for i < len(s) {
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == esc && i+1 < len(s) && s[i+1] == '\\' {
			return i + 2
		}
		if r, size := utf8.DecodeRuneInString(s[i:]); r == 0x9c {
			return i + size
		} else {
			i += size
		}
	}
	return i
}
