package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Fill names a key that one object of a document is seen to have when the
// document itself lacks it: a normalisation applied while reading, so the
// document's bytes are neither copied nor changed. The result of a tool
// call read with Fill{At: result, Key: "isError", Value: false} is the
// case it serves.
type Fill struct {
	// At is the path of the object the key belongs to; only plain keys
	// and non-negative indexes match it.
	At Path
	// Key is the key the object is seen to have.
	Key string
	// Value is the key's JSON value when the object lacks it.
	Value json.RawMessage
}

// ExtractRaw finds the value at the path in raw, a JSON document json.Valid
// accepts, and returns its JSON text as the document has it: object keys in
// their order, numbers in their literal form (1.0 stays 1.0, 1e3 stays 1e3,
// big integers keep every digit), strings with their escapes. Only white
// space between tokens is dropped. A scalar, or a compound value without
// such white space, is a slice of raw capped at its length (an append
// copies instead of writing into raw); otherwise the value is a compacted
// copy.
//
// It resolves exactly as Extract resolves the decoded document: a key that
// appears twice yields its last value, negative indexes count from the end,
// "length" on an array is its length, and failures are the same
// ResolveErrors (wrapping ErrNotFound) with the same texts. fill, when not
// nil, adds its key to the object it names when that object lacks it; a
// value that contains that object shows the key, appended after the
// object's own keys.
func (p Path) ExtractRaw(raw []byte, fill *Fill) (json.RawMessage, error) {
	cur := raw[skipSpace(raw, 0):]
	if len(cur) == 0 {
		return nil, &ResolveError{Reason: "the document is empty"}
	}
	// The document is one valid value: it ends where its trailing white
	// space starts, which is found without skipping all of it.
	cur = cur[:trimEnd(cur)]
	for i, seg := range p.segs {
		next, reason, mismatch := rawStep(cur, seg, fillAt(fill, p.segs[:i]))
		if reason != "" {
			return nil, &ResolveError{At: renderPrefix(p.segs, i+1), Reason: reason, Mismatch: mismatch}
		}
		cur = next
	}
	if fill != nil && len(p.segs) <= fill.At.Len() && samePrefix(p.segs, fill.At.segs) {
		if filled, ok := applyFill(cur, fill.At.segs[len(p.segs):], fill); ok {
			return compactRaw(filled), nil
		}
	}
	return compactRaw(cur[:len(cur):len(cur)]), nil
}

// fillAt returns fill when the object reached by the segments walked so
// far is the one fill names.
func fillAt(fill *Fill, walked []Segment) *Fill {
	if fill != nil && len(walked) == fill.At.Len() && samePrefix(walked, fill.At.segs) {
		return fill
	}
	return nil
}

// samePrefix reports whether a and the first len(a) segments of b are
// equal, negative indexes never matching.
func samePrefix(a, b []Segment) bool {
	for i, s := range a {
		if s != b[i] || (s.IsIndex && s.Index < 0) {
			return false
		}
	}
	return true
}

// rawStep applies one segment to the value v (trimmed of white space).
// fill is set when v is the object it names.
func rawStep(v []byte, seg Segment, fill *Fill) (next []byte, reason string, mismatch bool) {
	switch v[0] {
	case '{':
		if seg.IsIndex {
			return nil, fmt.Sprintf("cannot take index [%d] of an object (%s)", seg.Index, rawDescribeKeys(v, fill)), true
		}
		if val, ok := rawLastKey(v, seg.Key); ok {
			return val, "", false
		}
		if fill != nil && seg.Key == fill.Key {
			return fill.Value, "", false
		}
		return nil, fmt.Sprintf("key %s not found (%s)", quoteKey(seg.Key), rawDescribeKeys(v, fill)), false
	case '[':
		if seg.IsIndex && seg.Index >= 0 {
			if el, ok := rawIndex(v, seg.Index); ok {
				return el[:skipValue(el, 0)], "", false
			}
		}
		n := rawLen(v)
		if !seg.IsIndex {
			if seg.Key == lengthKey {
				return []byte(strconv.Itoa(n)), "", false
			}
			return nil, fmt.Sprintf("cannot take key %s of an array of length %d; use an index such as [0]", quoteKey(seg.Key), n), true
		}
		i := seg.Index
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return nil, fmt.Sprintf("index %d out of range (length %d)", seg.Index, n), false
		}
		el, _ := rawIndex(v, i)
		return el[:skipValue(el, 0)], "", false
	default:
		if seg.IsIndex {
			return nil, fmt.Sprintf("cannot take index [%d] of %s", seg.Index, DescribeRaw(v)), true
		}
		return nil, fmt.Sprintf("cannot take key %s of %s", quoteKey(seg.Key), DescribeRaw(v)), true
	}
}

// rawLastKey returns the value of the last occurrence of key in the object
// obj, trimmed to the value: a decoder keeps the last of duplicate keys.
func rawLastKey(obj []byte, key string) ([]byte, bool) {
	var found []byte
	rawMembers(obj, func(k, v []byte) {
		if keyEquals(k, key) {
			found = v
		}
	})
	return found, found != nil
}

// rawMembers calls fn with each key (a JSON string) and value of the object
// obj, in document order.
func rawMembers(obj []byte, fn func(k, v []byte)) {
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] != '}' {
		kEnd := skipValue(obj, i)
		k := obj[i:kEnd]
		i = skipSpace(obj, kEnd)
		i = skipSpace(obj, i+1) // the colon
		vEnd := skipValue(obj, i)
		fn(k, obj[i:vEnd])
		i = skipSpace(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
}

// rawLen counts the elements of the array arr.
func rawLen(arr []byte) int {
	n := 0
	i := skipSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		n++
		i = skipSpace(arr, skipValue(arr, i))
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
	return n
}

// rawKeys returns the distinct keys of the object obj, decoded.
func rawKeys(obj []byte) []string {
	var keys []string
	seen := map[string]bool{}
	rawMembers(obj, func(k, _ []byte) {
		var s string
		if json.Unmarshal(k, &s) == nil && !seen[s] {
			seen[s] = true
			keys = append(keys, s)
		}
	})
	return keys
}

// rawDescribeKeys is describeKeys for a raw object, fill's key included.
func rawDescribeKeys(obj []byte, fill *Fill) string {
	keys := rawKeys(obj)
	if fill != nil && !containsString(keys, fill.Key) {
		keys = append(keys, fill.Key)
	}
	m := make(map[string]any, len(keys))
	for _, k := range keys {
		m[k] = nil
	}
	return describeKeys(m)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// applyFill returns v with fill's key added to the object that rest leads
// to inside v, when that object exists and lacks the key; a copy, since
// v is part of a document that must not change.
func applyFill(v []byte, rest []Segment, fill *Fill) ([]byte, bool) {
	obj := v
	for _, seg := range rest {
		var ok bool
		switch {
		case len(obj) == 0:
			return nil, false
		case seg.IsIndex && obj[0] == '[':
			if obj, ok = rawIndex(obj, seg.Index); ok {
				obj = obj[:skipValue(obj, 0)]
			}
		case !seg.IsIndex && obj[0] == '{':
			obj, ok = rawLastKey(obj, seg.Key)
		}
		if !ok {
			return nil, false
		}
	}
	if len(obj) == 0 || obj[0] != '{' {
		return nil, false
	}
	if _, has := rawLastKey(obj, fill.Key); has {
		return nil, false
	}
	// obj is a slice of v, and both run to the end of the document's
	// array, so their capacities give obj's offset in v.
	closeAt := cap(v) - cap(obj) + len(obj) - 1
	member := quoteKey(fill.Key) + ":" + string(fill.Value)
	if len(bytes.TrimSpace(obj[1:len(obj)-1])) > 0 {
		member = "," + member
	}
	out := make([]byte, 0, len(v)+len(member))
	out = append(out, v[:closeAt]...)
	out = append(out, member...)
	return append(out, v[closeAt:]...), true
}

// compactRaw drops the white space between the tokens of v, copying only
// when there is some.
func compactRaw(v []byte) json.RawMessage {
	if v[0] != '{' && v[0] != '[' || !hasLooseSpace(v) {
		return json.RawMessage(v)
	}
	var b bytes.Buffer
	b.Grow(len(v))
	if json.Compact(&b, v) != nil {
		return json.RawMessage(v)
	}
	out := b.Bytes()
	return json.RawMessage(out[:len(out):len(out)])
}

// hasLooseSpace reports whether v has white space outside its strings.
func hasLooseSpace(v []byte) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			i = skipString(v, i) - 1
		case ' ', '\t', '\r', '\n':
			return true
		}
	}
	return false
}

// maxPreviewBytes bounds how much of a huge string DescribeRaw decodes.
const maxPreviewBytes = 4 * maxPreview

// DescribeRaw is Describe for the JSON text of a value.
func DescribeRaw(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return fmt.Sprintf("an object with %s", plural(len(rawKeys(v)), "key"))
	case '[':
		return fmt.Sprintf("an array of length %d", rawLen(v))
	case '"':
		return Describe(previewString(v))
	case 't', 'f':
		return "the boolean " + string(v)
	case 'n':
		return "null"
	default:
		return "the number " + string(v)
	}
}

// previewString decodes the JSON string s, or enough of its start for a
// preview when it is huge.
func previewString(s []byte) string {
	if len(s) > maxPreviewBytes {
		head := s[:maxPreviewBytes]
		// Cut before an escape the limit may have split.
		if i := bytes.LastIndexByte(head, '\\'); i > len(head)-12 {
			head = head[:i]
		}
		s = append(append([]byte(nil), head...), '"')
		var str string
		_ = json.Unmarshal(s, &str)
		return strings.TrimRight(str, "\uFFFD")
	}
	var str string
	_ = json.Unmarshal(s, &str)
	return str
}

// ExtractRawUnder is ExtractRaw on the document {key: raw} without making
// it: a tool call's envelope {"result": ...} read straight from the
// result's bytes. A path that does not start with key (or is empty) is
// resolved against the document made for the purpose, so every answer and
// error is the one ExtractRaw gives on {key: raw}.
func (p Path) ExtractRawUnder(key string, raw []byte, fill *Fill) (json.RawMessage, error) {
	if len(p.segs) == 0 || p.segs[0].IsIndex || p.segs[0].Key != key {
		doc := make([]byte, 0, len(raw)+len(key)+5)
		doc = append(doc, '{')
		doc = append(doc, quoteKey(key)...)
		doc = append(doc, ':')
		doc = append(doc, raw...)
		doc = append(doc, '}')
		return p.ExtractRaw(doc, fill)
	}
	var inner *Fill
	if fill != nil && fill.At.Len() > 0 && fill.At.segs[0] == p.segs[0] {
		inner = &Fill{At: Path{segs: fill.At.segs[1:]}, Key: fill.Key, Value: fill.Value}
	}
	v, err := Path{segs: p.segs[1:]}.ExtractRaw(raw, inner)
	var re *ResolveError
	if errors.As(err, &re) {
		// The error names the path from the envelope's root.
		e := *re
		e.At = renderPrefix(p.segs[:1], 1)
		switch {
		case re.At == "":
		case strings.HasPrefix(re.At, "["):
			e.At += re.At
		default:
			e.At += "." + re.At
		}
		return nil, &e
	}
	return v, err
}
