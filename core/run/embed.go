package run

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// maxEmbedDepth is the deepest JSON from a server or a plugin that a report
// embeds as JSON. A report nests it a few levels down, and every consumer
// must decode the whole document: Go's encoding/json stops at 10,000
// levels, Python's json near 1,000, and indenting reporters write a line
// per level, each longer than the last. Deeper values are embedded as text.
const maxEmbedDepth = 128

// embedLimit bounds the text of one value embedded in a failure.
const embedLimit = responseLimit

// jsonDepth returns the deepest nesting of arrays and objects in b, which
// need not be valid JSON; brackets inside strings do not count.
func jsonDepth(b []byte) int {
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

// embeddable reports whether b can go into a report as JSON as it is.
func embeddable(b []byte) bool {
	return jsonDepth(b) <= maxEmbedDepth && json.Valid(b)
}

// embedText returns b as a JSON string, cut to limit bytes (at a UTF-8
// boundary) with a marker saying how long it was.
func embedText(b []byte, limit int) json.RawMessage {
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

// cutSlack is room for a truncation marker ("…[truncated: N bytes in
// total]", with JSON quoting) beyond a limit.
const cutSlack = 64

// boundFailure keeps a matcher's failure detail fit for a report: a field
// longer than embedLimit, or nested deeper than maxEmbedDepth, becomes a
// string holding the start of its text. The plugin's output is untrusted,
// and may echo a huge or deeply nested server response in full.
func boundFailure(raw json.RawMessage) json.RawMessage {
	if len(raw) <= embedLimit && embeddable(raw) {
		return raw
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		b, _ := json.Marshal(map[string]json.RawMessage{
			"note": json.RawMessage(`"the matcher's failure detail is too large or too deeply nested to show as JSON"`),
			"raw":  embedText(raw, embedLimit),
		})
		return b
	}
	for k, v := range fields {
		// cutSlack lets through a field the SDK already cut to its limit
		// (sdk.FailureValueLimit, the same size) with its marker, so the
		// marker naming the full length survives instead of being cut
		// again and replaced by one naming the cut length.
		if len(v) <= embedLimit+cutSlack && jsonDepth(v) <= maxEmbedDepth {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			fields[k] = embedText([]byte(s), embedLimit) // a long string: cut its text, not its quoting
		} else {
			fields[k] = embedText(v, embedLimit)
		}
	}
	b, _ := json.Marshal(fields)
	return b
}
