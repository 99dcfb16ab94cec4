// Package jsontext prepares JSON text for people to read.
package jsontext

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Readable returns raw with the \uXXXX escapes of printable characters
// inside its strings replaced by the characters themselves, so a value
// reads "<b>" rather than "\u003cb\u003e" (Go's encoder writes <, > and &
// that way, and other encoders escape everything outside ASCII). Escapes
// that keep the text valid JSON stay: quotes, backslashes, control
// characters, unpaired surrogates, and the line and paragraph separators
// U+2028 and U+2029. The result is still JSON and means the same; the
// reporter escapes it for its own medium. Text that is not well-formed
// JSON comes back unchanged.
func Readable(raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw
	}
	out := make([]byte, 0, len(raw))
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case !inString:
			if c == '"' {
				inString = true
			}
			out = append(out, c)
			continue
		case c == '"':
			inString = false
			out = append(out, c)
			continue
		case c != '\\':
			out = append(out, c)
			continue
		}
		// An escape inside a string.
		if i+1 >= len(raw) {
			return raw
		}
		if raw[i+1] != 'u' {
			out = append(out, c, raw[i+1])
			i++
			continue
		}
		r, n, ok := decodeEscape(raw[i:])
		if !ok {
			return raw
		}
		if keepEscaped(r) {
			out = append(out, raw[i:i+n]...)
		} else {
			out = utf8.AppendRune(out, r)
		}
		i += n - 1
	}
	if inString {
		return raw
	}
	return out
}

// decodeEscape reads a \uXXXX escape at the start of b, joining a
// surrogate pair written as two escapes; n is the bytes consumed.
// An unpaired surrogate decodes as itself, which keepEscaped keeps.
func decodeEscape(b []byte) (r rune, n int, ok bool) {
	hi, ok := hex4(b)
	if !ok {
		return 0, 0, false
	}
	if utf16.IsSurrogate(hi) && hi < 0xdc00 {
		if lo, ok := hex4(b[6:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
			return utf16.DecodeRune(hi, lo), 12, true
		}
	}
	return hi, 6, true
}

// hex4 decodes "\uXXXX" at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[2:6]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

// keepEscaped reports the characters that stay escapes: those JSON
// requires escaped, those not printable, surrogates, and the separators
// that end a line in JavaScript.
func keepEscaped(r rune) bool {
	switch {
	case r == '"' || r == '\\':
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case utf16.IsSurrogate(r):
		return true
	}
	return !unicode.IsPrint(r) && r != ' '
}
