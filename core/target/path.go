// Package target parses and evaluates target paths: the expressions a suite
// uses to point at one value inside a response, such as
// result.content[0].text, result.structuredContent.sum, result["odd.key"]
// or result.items[-1].
//
// Grammar:
//
//	path    = first { "." key | "[" index "]" | "[" quoted "]" }
//	first   = key | "[" index "]" | "[" quoted "]"
//	key     = one or more characters other than . [ ] quotes, spaces and control characters
//	index   = [ "-" ] digits          (negative counts from the end: -1 is the last element)
//	quoted  = a "double-quoted" string with JSON escapes, or a 'single-quoted' one
//	          where \' and \\ are the only escapes
//
// A path is evaluated against a decoded JSON value (see Path.Extract); its
// first segment is a key of that root object.
package target

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Segment is one step of a Path: either an object key or an array index.
type Segment struct {
	// Key is the object key to take when IsIndex is false.
	Key string
	// Index is the array index to take when IsIndex is true; negative values
	// count from the end of the array.
	Index int
	// IsIndex tells whether the segment is an array index.
	IsIndex bool
}

// String renders the segment as it would appear after another segment:
// ".key", ["odd key"] or [3].
func (s Segment) String() string {
	if s.IsIndex {
		return "[" + strconv.Itoa(s.Index) + "]"
	}
	if isPlainKey(s.Key) {
		return "." + s.Key
	}
	return "[" + quoteKey(s.Key) + "]"
}

// Path is a parsed target path. The zero Path has no segments and extracts
// the root value itself.
type Path struct {
	segs []Segment
}

// NewPath builds a Path from segments, for callers that assemble paths in
// code rather than parsing them.
func NewPath(segs ...Segment) Path {
	return Path{segs: append([]Segment(nil), segs...)}
}

// Segments returns a copy of the path's segments.
func (p Path) Segments() []Segment {
	return append([]Segment(nil), p.segs...)
}

// Len returns the number of segments in the path.
func (p Path) Len() int { return len(p.segs) }

// String renders the path in canonical form; Parse(p.String()) yields an
// equal path. Keys that are not plain identifiers are written as ["key"].
func (p Path) String() string {
	return renderPrefix(p.segs, len(p.segs))
}

// renderPrefix renders the first n segments of segs.
func renderPrefix(segs []Segment, n int) string {
	var b strings.Builder
	for i, s := range segs[:n] {
		str := s.String()
		if i == 0 && !s.IsIndex && isPlainKey(s.Key) {
			str = s.Key
		}
		b.WriteString(str)
	}
	return b.String()
}

// isPlainKey reports whether key can be written after a dot without quoting.
func isPlainKey(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if !isKeyRune(r) {
			return false
		}
	}
	return true
}

// isKeyRune reports whether r may appear in an unquoted key.
func isKeyRune(r rune) bool {
	switch r {
	case '.', '[', ']', '"', '\'', ' ', '\\':
		return false
	}
	return r > 0x1f && r != 0x7f
}

// quoteKey renders key as a double-quoted JSON string.
func quoteKey(key string) string {
	b, err := json.Marshal(key)
	if err != nil { // cannot happen for a string
		return strconv.Quote(key)
	}
	return string(b)
}
