package redact

import "bytes"

// commonness ranks how often a byte turns up in the JSON and text mcptest
// masks: structure and lower-case letters most, then digits, upper case,
// other punctuation; bytes of non-ASCII characters least. Searching for a
// secret's least common byte first (its anchor) makes a text without the
// secret a few fast memchr calls instead of one call per occurrence of its
// first byte.
func commonness(c byte) int {
	switch {
	case c == ' ' || c == '"' || c == ':' || c == ',' || c == '{' || c == '}' || c == '\\':
		return 9
	case c >= 'a' && c <= 'z':
		return 8
	case c >= '0' && c <= '9':
		return 6
	case c == '-' || c == '.' || c == '/' || c == '_' || c == '[' || c == ']' || c == '\n':
		return 5
	case c >= 'A' && c <= 'Z':
		return 4
	case c < 0x80:
		return 3
	}
	return 2
}

// anchorOf returns the offset in raw of its least common byte.
func anchorOf(raw []byte) int {
	best := 0
	for i, c := range raw {
		if commonness(c) < commonness(raw[best]) {
			best = i
		}
	}
	return best
}

// index returns the first index of s.raw in text, or -1.
func (s *secret) index(text []byte) int {
	a, c := s.anchor, s.raw[s.anchor]
	for i := a; i < len(text); {
		j := bytes.IndexByte(text[i:], c)
		if j < 0 {
			return -1
		}
		at := i + j - a
		if at+len(s.raw) <= len(text) && bytes.Equal(text[at:at+len(s.raw)], s.raw) {
			return at
		}
		i += j + 1
	}
	return -1
}
