package redact

import (
	"bytes"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// barrier stands, in decoded text, for a quote that was bare one level
// down: it ended or began a JSON string there, so no secret spans it. It
// is never part of valid UTF-8, so it matches no secret byte.
const barrier = 0xff

// unescape decodes one level of JSON string escaping, greedily from the
// start of src, appending to dst: "\/" becomes "/", "\u00E9" "é", a
// surrogate pair its character, a lone surrogate U+FFFD. A backslash that
// starts no valid escape is kept as it is. Bare quotes are kept too: this
// is the fast pass, which only tells whether a secret may be present.
// dst may be src[:0]: the output never runs ahead of the input.
func unescape(dst, src []byte) []byte {
	if cap(dst) < len(src) {
		dst = slices.Grow(dst, len(src))
	}
	for i := 0; i < len(src); {
		// Plain runs are copied whole; most JSON has few escapes.
		k := bytes.IndexByte(src[i:], '\\')
		if k < 0 {
			return append(dst, src[i:]...)
		}
		dst = append(dst, src[i:i+k]...)
		i += k
		if i+1 < len(src) {
			if c := shortEscape[src[i+1]]; c != 0 {
				dst = append(dst, c)
				i += 2
				continue
			}
		}
		c, n := escape(src[i:])
		dst = utf8.AppendRune(dst, c)
		i += n
	}
	return dst
}

// shortEscape maps the letter after a backslash to the byte it stands for
// (0: not a two-byte escape).
var shortEscape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// level is text decoded some number of levels, with, for every decoded
// byte, the offsets in the original text of the character it came from.
type level struct {
	text       []byte
	start, end []int
}

// unescapeTracked is unescape for the precise pass: it maps every byte
// back to the original text, and turns bare quotes into barriers.
func unescapeTracked(src level) level {
	out := level{text: make([]byte, 0, len(src.text)), start: make([]int, 0, len(src.text)), end: make([]int, 0, len(src.text))}
	for i := 0; i < len(src.text); {
		var enc [utf8.UTFMax]byte
		var b []byte
		n := 1
		switch c := src.text[i]; {
		case c == '\\':
			var r rune
			r, n = escape(src.text[i:])
			b = utf8.AppendRune(enc[:0], r)
		case c == '"':
			b = append(enc[:0], barrier)
		case c >= utf8.RuneSelf:
			// A character (or an invalid byte) passes as it is.
			_, n = utf8.DecodeRune(src.text[i:])
			b = src.text[i : i+n]
		default:
			b = append(enc[:0], c)
		}
		from, to := src.start[i], src.end[i+n-1]
		for _, x := range b {
			out.text = append(out.text, x)
			out.start = append(out.start, from)
			out.end = append(out.end, to)
		}
		i += n
	}
	return out
}

// escape decodes the escape at the start of b (b[0] is a backslash) and
// returns the character and the escape's length; a backslash that starts
// no valid escape stands for itself (length 1).
func escape(b []byte) (rune, int) {
	if len(b) < 2 {
		return '\\', 1
	}
	switch b[1] {
	case '"', '\\', '/':
		return rune(b[1]), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		u, ok := hex4(b[2:])
		if !ok {
			return '\\', 1
		}
		if !utf16.IsSurrogate(u) {
			return u, 6
		}
		if u < 0xdc00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if lo, ok := hex4(b[8:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
				return utf16.DecodeRune(u, lo), 12
			}
		}
		return utf8.RuneError, 6 // a lone surrogate, as encoding/json reads it
	}
	return '\\', 1
}

// hex4 reads four hex digits, in either case.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
