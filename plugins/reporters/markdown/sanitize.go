package main

import (
	"regexp"
	"strings"
)

// escapeSeq matches terminal escape sequences: CSI (7- and 8-bit), control
// strings (OSC, DCS, SOS, PM, APC) up to their terminator or the end of the
// text, and the short ESC forms.
var escapeSeq = regexp.MustCompile(`(?:\x1b\[|\x{9b})[\x20-\x3f]*[\x40-\x7e]?` +
	`|(?:\x1b[\]PX^_]|[\x{90}\x{98}\x{9d}\x{9e}\x{9f}])(?s:.*?)(?:\x07|\x1b\\|\x{9c}|$)` +
	`|\x1b[\x20-\x2f]*[\x30-\x7e]?`)

// clean strips escape sequences and control characters (all C0 and C1
// controls but newline and tab, DEL, bidirectional overrides and isolates,
// line and paragraph separators) from untrusted text; invalid UTF-8 becomes
// U+FFFD. pretty's sanitize.go does the same with a hand-written scanner.
func clean(s string) string {
	if isPlain(s) {
		return s
	}
	s = escapeSeq.ReplaceAllString(strings.ToValidUTF8(s, "\uFFFD"), "")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
			return -1
		}
		return r
	}, s)
}

// isPlain reports printable ASCII plus newline and tab: nothing to strip.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}
