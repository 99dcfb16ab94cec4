package run

import (
	"encoding/json"
	"unicode/utf8"
)

// encodeValue returns json.Marshal(v) for a value decoded from JSON (with
// UseNumber). Judging encodes the value at every assertion's target, and
// most are strings, numbers and booleans whose encoding needs neither
// reflection nor encoding/json's buffers: those are written here, byte for
// byte what json.Marshal writes; anything else (objects, arrays, strings
// that need escaping) goes to json.Marshal.
func encodeValue(v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return []byte("null"), nil
	case bool:
		if x {
			return []byte("true"), nil
		}
		return []byte("false"), nil
	case string:
		if plainString(x) {
			b := make([]byte, len(x)+2)
			b[0] = '"'
			copy(b[1:], x)
			b[len(b)-1] = '"'
			return b, nil
		}
	case json.Number:
		// json.Marshal writes a valid number literal as it is; it turns
		// "" into 0 and rejects anything else, so those take its path.
		if numberLiteral(string(x)) {
			return []byte(x), nil
		}
	}
	return json.Marshal(v)
}

// plainString reports whether json.Marshal writes s between quotes
// unchanged: valid UTF-8 without control characters, quotes, backslashes,
// the HTML characters it escapes (<, >, &) or U+2028 and U+2029, which it
// escapes for JavaScript.
func plainString(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// numberLiteral reports whether s is a JSON number literal:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, the grammar json.Marshal
// checks a json.Number against.
func numberLiteral(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	switch {
	case s == "":
		return false
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = skipDigits(s[1:])
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && isDigit(s[1]) {
		s = skipDigits(s[2:])
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
		}
		if s != "" && isDigit(s[0]) {
			s = skipDigits(s[1:])
		} else {
			return false
		}
	}
	return s == ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipDigits drops the leading digits of s.
func skipDigits(s string) string {
	for s != "" && isDigit(s[0]) {
		s = s[1:]
	}
	return s
}
