package target

// Helpers that walk the JSON text of a document json.Valid accepted, for
// ExtractRaw: they need no error paths.

import (
	"bytes"
	"encoding/json"
)

// rawIndex returns element n of the array raw starts with.
func rawIndex(raw []byte, n int) ([]byte, bool) {
	i := skipSpace(raw, 0)
	if n < 0 || i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	for k := 0; i < len(raw) && raw[i] != ']'; k++ {
		if k == n {
			return raw[i:], true
		}
		i = skipSpace(raw, skipValue(raw, i))
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return nil, false
}

// keyEquals compares a raw JSON string with key; a key with escapes is
// decoded first.
func keyEquals(rawKey []byte, key string) bool {
	body := rawKey[1 : len(rawKey)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == key
	}
	var s string
	return json.Unmarshal(rawKey, &s) == nil && s == key
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the index just past the JSON value starting at i, in
// a document known to be valid.
func skipValue(raw []byte, i int) int {
	switch raw[i] {
	case '"':
		return skipString(raw, i)
	case '{', '[':
		depth := 0
		for ; i < len(raw); i++ {
			switch raw[i] {
			case '"':
				i = skipString(raw, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	default: // a number, true, false or null
		for i < len(raw) {
			switch raw[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
			i++
		}
		return i
	}
}

// skipString returns the index just past the string starting at raw[i]
// (a quote), in a document known to be valid: the first quote after it
// that an even run of backslashes precedes. Quotes are found with
// bytes.IndexByte, which reads many bytes a step, rather than byte by
// byte: strings (a tool's text) are most of a response, and every
// extraction skips the members before and after the one it takes. An
// unterminated string, which a valid document cannot hold, ends at
// len(raw).
func skipString(raw []byte, i int) int {
	for i++; ; {
		k := bytes.IndexByte(raw[i:], '"')
		if k < 0 {
			return len(raw)
		}
		j := i + k
		n := 0
		for j-1-n >= i && raw[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		i = j + 1
	}
}

// trimEnd returns the length of raw without its trailing white space: in
// a valid document, the end of its one value.
func trimEnd(raw []byte) int {
	end := len(raw)
	for end > 0 {
		switch raw[end-1] {
		case ' ', '\t', '\r', '\n':
			end--
		default:
			return end
		}
	}
	return end
}
