package jsonx

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// MaxEmbedDepth is the deepest JSON from a server or a plugin that a report
// embeds as JSON. A report nests it a few levels down, and every consumer
// must decode the whole document: Go's encoding/json stops at 10,000
// levels, Python's json near 1,000, and indenting reporters write a line
// per level, each longer than the last. Deeper values are embedded as text.
const MaxEmbedDepth = 128

// EmbedLimit bounds the text of one value a report embeds: a failed test's
// response, one field of a matcher's failure.
const EmbedLimit = 64 << 10

// Depth returns the deepest nesting of arrays and objects in b, which
// need not be valid JSON; brackets inside strings do not count.
func Depth(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// Embeddable reports whether b can go into a report as JSON as it is: one
// JSON value (as json.Valid says) nested at most MaxEmbedDepth deep.
func Embeddable(b []byte) bool {
	return embeddable(b)
}

// EmbedText returns b as a JSON string, cut to limit bytes (at a UTF-8
// boundary) with a marker saying how long it was.
func EmbedText(b []byte, limit int) json.RawMessage {
	// Cut before converting: b may be a 50 MB response, and string(b)
	// would copy all of it only to keep the first limit bytes.
	var s string
	if len(b) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		s = fmt.Sprintf("%s…[truncated: %d bytes in total]", b[:cut], len(b))
	} else {
		s = string(b)
	}
	out, _ := json.Marshal(s)
	return out
}
