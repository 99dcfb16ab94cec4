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
		i++
		for raw[i] != '"' {
			if raw[i] == '\\' {
				i++
			}
			i++
		}
		return i + 1
	case '{', '[':
		depth := 0
		for ; i < len(raw); i++ {
			switch raw[i] {
			case '"':
				i = skipValue(raw, i) - 1
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
