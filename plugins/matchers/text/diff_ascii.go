package main

import (
	"strings"
	"unicode/utf8"
)

// diffInlineASCII is diffInline for the common failure of a one-line
// ASCII text (a tool answer that differs from the expected one in a word
// or a digit), written without the rune slices and the sequence matcher
// the general path allocates for every failure. It handles two ASCII
// strings whose changed middles (after the common prefix and suffix)
// share no byte, or one of which is empty: there the sequence matcher
// finds no matching block, so the diff is one insertion, deletion or
// replacement. It reports false for anything else, which diffInline then
// diffs in full; the output is the same either way (TestDiffInlineASCII).
func diffInlineASCII(expected, actual string) (string, bool) {
	if !isASCII(expected) || !isASCII(actual) {
		return "", false
	}
	p := 0
	for p < len(expected) && p < len(actual) && expected[p] == actual[p] {
		p++
	}
	a, b := expected[p:], actual[p:]
	s := 0
	for s < len(a) && s < len(b) && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	midA, midB := a[:len(a)-s], b[:len(b)-s]
	var tag byte
	switch {
	case len(midA) > maxInlineRunes || len(midB) > maxInlineRunes:
		tag = 'r'
	case len(midA) == 0:
		tag = 'i'
	case len(midB) == 0:
		tag = 'd'
	case shareByte(midA, midB):
		return "", false
	default:
		tag = 'r'
	}
	var sb strings.Builder
	sb.Grow(2*inlineContext + len(midA) + len(midB) + 16)
	if pre := expected[:p]; len(pre) > inlineContext {
		sb.WriteString("…")
		sb.WriteString(pre[len(pre)-inlineContext:])
	} else {
		sb.WriteString(pre)
	}
	writeChange(&sb, tag, midA, midB)
	if post := a[len(a)-s:]; len(post) > inlineContext {
		sb.WriteString(post[:inlineContext])
		sb.WriteString("…")
	} else {
		sb.WriteString(post)
	}
	return truncateRunes(sb.String(), maxInlineOutput), true
}

// isASCII reports whether s is all ASCII, so bytes are runes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// shareByte reports whether two ASCII strings have a byte in common.
func shareByte(a, b string) bool {
	var seen [utf8.RuneSelf]bool
	for i := 0; i < len(a); i++ {
		seen[a[i]] = true
	}
	for i := 0; i < len(b); i++ {
		if seen[b[i]] {
			return true
		}
	}
	return false
}
