package jsonvalue

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeScalar decodes t (trimmed of white space) when it is a scalar that
// needs no unescaping: a string with no backslash, no control character and
// valid UTF-8, a number, true, false or null. It reports false for
// anything else, which the caller then hands to encoding/json.
//
// Matchers decode two values per assertion, mostly short tool texts and
// literal arguments, and encoding/json pays for reflection, a validity scan
// and (for numbers) a Decoder on each; this path reads them in one scan
// and returns exactly what the Decoder would (numbers as json.Number,
// text as written).
func decodeScalar(t []byte) (any, bool) {
	if len(t) == 0 {
		return nil, false
	}
	switch c := t[0]; {
	case c == '"':
		return plainString(t)
	case c == '-' || (c >= '0' && c <= '9'):
		if validNumber(t) {
			return json.Number(t), true
		}
	case string(t) == "true":
		return true, true
	case string(t) == "false":
		return false, true
	case string(t) == "null":
		return nil, true
	}
	return nil, false
}

// plainString decodes a quoted string that has nothing to unescape.
func plainString(t []byte) (any, bool) {
	p := parser{b: t}
	if s, ok := p.str(); ok && p.i == len(t) {
		return s, true
	}
	return nil, false
}

// validNumber reports whether t is exactly one JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(t []byte) bool {
	i := 0
	if t[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(t) && t[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(t) && t[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(t)
}

// plainByte marks the bytes a plain string holds as they are: printable
// ASCII other than the quote and the backslash. A table makes the scan
// one load per byte.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
