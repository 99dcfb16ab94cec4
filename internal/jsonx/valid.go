package jsonx

import (
	"encoding/binary"
	"math/bits"
)

// maxValidDepth is the deepest nesting json.Valid accepts (encoding/json's
// scanner refuses a document nested deeper than 10,000 levels).
const maxValidDepth = 10000

// Valid reports whether b is one JSON value, exactly as json.Valid does,
// in one hand-written pass: the runner checks every response it judges
// before reading targets out of it in place, and encoding/json's
// validator steps a state machine through a function call per byte.
func Valid(b []byte) bool {
	return scanValue(b, maxValidDepth)
}

// embeddable is Depth(b) <= MaxEmbedDepth && json.Valid(b) in one pass.
// mcptest checks every matcher failure (and every response) it embeds in
// a report; encoding/json's validator steps a state machine through a
// function call per byte, which made the check of the failures the
// largest single cost of judging a large run on the host (about a seventh
// of it). This reader accepts exactly what json.Valid accepts (strings
// are not checked for UTF-8, as json.Valid does not), and fails a value
// nested deeper than MaxEmbedDepth, which Depth would have refused.
func embeddable(b []byte) bool {
	return scanValue(b, MaxEmbedDepth)
}

// scanValue reports whether b is one JSON value nested at most maxDepth
// deep.
func scanValue(b []byte, maxDepth int) bool {
	// The closer of each open container; the first MaxEmbedDepth on the
	// stack, deeper ones (only Valid goes there) in a grown slice.
	var first [MaxEmbedDepth]byte
	closers := first[:0]
	depth, i := 0, 0
outer:
	for {
		// A value starts at i.
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch c := b[i]; c {
		case '{', '[':
			if depth == maxDepth {
				return false
			}
			closer := byte(']')
			if c == '{' {
				closer = '}'
			}
			closers = append(closers[:depth], closer)
			depth++
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == closer {
				depth--
				i++
				break
			}
			if c == '{' {
				if i = member(b, i); i < 0 {
					return false
				}
			}
			continue outer
		case '"':
			if i = scanString(b, i); i < 0 {
				return false
			}
		case 't':
			if i = literal(b, i, "true"); i < 0 {
				return false
			}
		case 'f':
			if i = literal(b, i, "false"); i < 0 {
				return false
			}
		case 'n':
			if i = literal(b, i, "null"); i < 0 {
				return false
			}
		default:
			if i = scanNumber(b, i); i < 0 {
				return false
			}
		}
		// A value ended at i: close containers, or go on to the next
		// element.
		for {
			i = skipSpace(b, i)
			if depth == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			switch b[i] {
			case ',':
				i++
				if closers[depth-1] == '}' {
					if i = member(b, skipSpace(b, i)); i < 0 {
						return false
					}
				}
				continue outer
			case closers[depth-1]:
				depth--
				i++
			default:
				return false
			}
		}
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// member reads an object member's name and colon at i and returns the
// index after the colon, or -1.
func member(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = scanString(b, i); i < 0 {
		return -1
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return -1
	}
	return i + 1
}

// scanString reads the string starting at b[i] == '"' and returns the
// index after its closing quote, or -1. Plain bytes (not a quote, a
// backslash or a control character), most of a string, are passed over
// eight at a time, and the first special byte of a word is found in one
// step, so a short key costs one word too.
func scanString(b []byte, i int) int {
	i++
	for {
		if i+8 <= len(b) {
			m := stringSpecials(binary.LittleEndian.Uint64(b[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		} else {
			for i < len(b) && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\' {
				i++
			}
			if i >= len(b) {
				return -1
			}
		}
		// b[i] is special.
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			if i+1 >= len(b) {
				return -1
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return -1
				}
				for _, h := range b[i+2 : i+6] {
					if !isHex(h) {
						return -1
					}
				}
				i += 6
			default:
				return -1
			}
		default: // a control character
			return -1
		}
	}
}

// Word-at-a-time byte tests (eight bytes in a uint64, the first in
// memory lowest).
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stringSpecials marks (with its high bit) each byte of w that is a
// quote, a backslash or below 0x20, and possibly bytes after a marked
// one: (x - ones) &^ x & highs marks the zero bytes of x, and (w -
// n*ones) &^ w & highs the bytes of w below n (n <= 0x80), exactly up to
// the first such byte, while a borrow from it may mark later ones. So the
// lowest mark is the first special byte, and no mark means none.
func stringSpecials(w uint64) uint64 {
	quote := w ^ ('"' * ones)
	backslash := w ^ ('\\' * ones)
	return ((quote-ones)&^quote | (backslash-ones)&^backslash | (w-0x20*ones)&^w) & highs
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// literal reads word at i and returns the index after it, or -1.
func literal(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// scanNumber reads a JSON number at i and returns the index after it, or
// -1: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// digits returns the index after the decimal digits starting at i.
func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
