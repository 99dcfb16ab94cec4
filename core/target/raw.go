package target

import (
	"bytes"
	"encoding/json"
)

// ExtractRawString finds the value at the path inside raw, a JSON document
// json.Valid accepts, without decoding it, and returns its bytes when it is
// a string: a slice of raw, not a copy. It serves huge responses, where
// decoding the whole document and encoding the value again would hold the
// response in memory three more times.
//
// It reports false whenever it cannot be sure Extract would give the same
// value: a segment that is not a plain key or a non-negative index, the
// "length" key, a key that appears twice in an object (the last one wins
// in a decoded document), a path that leads nowhere, or a value that is
// not a string. The caller then decodes and uses Extract.
func (p Path) ExtractRawString(raw []byte) (json.RawMessage, bool) {
	cur := raw
	for _, seg := range p.segs {
		var ok bool
		switch {
		case seg.IsIndex:
			cur, ok = rawIndex(cur, seg.Index)
		case seg.Key == lengthKey:
			return nil, false
		default:
			cur, ok = rawKey(cur, seg.Key)
		}
		if !ok {
			return nil, false
		}
	}
	cur = bytes.TrimLeft(cur, " \t\r\n")
	if len(cur) == 0 || cur[0] != '"' {
		return nil, false
	}
	end := skipValue(cur, 0)
	return json.RawMessage(cur[:end:end]), true
}

// rawKey returns the value of key in the object raw starts with (after
// white space); the rest of the document follows the value.
func rawKey(raw []byte, key string) ([]byte, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	var found []byte
	for i < len(raw) && raw[i] != '}' {
		kEnd := skipValue(raw, i)
		k := raw[i:kEnd]
		i = skipSpace(raw, kEnd)
		i = skipSpace(raw, i+1) // the colon
		vEnd := skipValue(raw, i)
		if keyEquals(k, key) {
			if found != nil {
				return nil, false // a duplicate: leave it to the decoder
			}
			found = raw[i:]
		}
		i = skipSpace(raw, vEnd)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return found, found != nil
}

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
