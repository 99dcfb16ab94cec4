// Package textsafe makes untrusted text safe to show in a report.
//
// Text that came from a server or a plugin (names, stderr, failure values,
// notes, error messages) is untrusted: in a terminal it could move the
// cursor, clear the screen, set the window title, hide text or reorder it;
// in a document it could hide or forge text or make the document invalid.
// Every reporter passes such text through [Clean] or [CleanLine] before it
// writes it, and then escapes it as its format requires.
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const esc = 0x1b

// Clean strips escape sequences and unsafe characters from s: ANSI/VT
// sequences (CSI, OSC, DCS, SOS, PM, APC and the two-byte forms, 7- and
// 8-bit), every other C0 and C1 control except newline and tab, DEL,
// carriage returns, the bidirectional embeddings, overrides and isolates,
// the line and paragraph separators, and the noncharacters U+FFFE and
// U+FFFF, which XML 1.0 forbids. Each byte of invalid UTF-8 becomes U+FFFD.
// An unterminated control string runs to the end of s and is removed
// whole.
func Clean(s string) string {
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
		case IsUnsafe(r):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// CleanLine is [Clean] for text shown inside a single line: newlines and
// tabs become spaces, so the text cannot forge extra lines. Other spaces,
// at the ends too, are kept.
func CleanLine(s string) string {
	s = Clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}

// CleanLineTrim is [CleanLine] with leading and trailing white space
// trimmed, for names, titles and attribute-like values.
func CleanLineTrim(s string) string {
	return strings.TrimSpace(CleanLine(s))
}

// IsUnsafe reports runes that must never reach a report: every C0 and C1
// control, DEL, the bidirectional embeddings, overrides and isolates, the
// line and paragraph separators, and U+FFFE and U+FFFF. Newline and tab
// are controls too; [Clean] keeps them as the only exceptions.
func IsUnsafe(r rune) bool {
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

// isPlain reports whether s is printable ASCII plus newline and tab, the
// common case that needs no work.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
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

// Truncate cuts s to at most n runes, saying how many were left out:
// "héllo… (+6 chars)". An n of zero or less means no limit.
func Truncate(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + fmt.Sprintf("… (+%d chars)", len(r)-n)
}

// LastLines returns the last n lines of s, ignoring trailing newlines, and
// how many lines were dropped before them. It returns nil for text that
// is empty once the trailing newlines are gone.
func LastLines(s string, n int) (lines []string, dropped int) {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil, 0
	}
	lines = strings.Split(s, "\n")
	if len(lines) <= n {
		return lines, 0
	}
	return lines[len(lines)-n:], len(lines) - n
}

// Tail returns the last n lines of s joined by newlines, without a
// trailing newline.
func Tail(s string, n int) string {
	lines, _ := LastLines(s, n)
	return strings.Join(lines, "\n")
}
