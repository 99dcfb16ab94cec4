package target

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrNotFound is wrapped by every error Extract returns: the path does not
// resolve in the value, because a key or index is missing or because a
// segment does not fit the value's type.
var ErrNotFound = errors.New("target not found")

// ErrTypeMismatch is wrapped, next to ErrNotFound, by errors for a segment
// that does not fit the value it is applied to, such as a key taken from a
// string or an index taken from an object.
var ErrTypeMismatch = errors.New("target type mismatch")

// ResolveError describes where and why a path failed to resolve.
type ResolveError struct {
	// At is the path up to and including the segment that failed.
	At string
	// Reason says what was missing and what was there instead.
	Reason string
	// Mismatch is true when the segment did not fit the value's type.
	Mismatch bool
}

// Error implements error, as "result.content[3]: index 3 out of range (length 2)".
func (e *ResolveError) Error() string { return e.At + ": " + e.Reason }

// Is makes errors.Is(err, ErrNotFound) true for every ResolveError and
// errors.Is(err, ErrTypeMismatch) true for type mismatches.
func (e *ResolveError) Is(target error) bool {
	return target == ErrNotFound || (e.Mismatch && target == ErrTypeMismatch)
}

// lengthKey is the pseudo-key that yields an array's length, as in
// tool_calls.length.
const lengthKey = "length"

// Extract walks root along the path and returns the value found. root is a
// decoded JSON value: map[string]any, []any, string, json.Number, float64,
// bool or nil (decode with json.Decoder.UseNumber so big integers survive).
// On an array, the key "length" yields the array's length as a json.Number.
// Failures wrap ErrNotFound (see ResolveError).
func (p Path) Extract(root any) (any, error) {
	cur := root
	for i, seg := range p.segs {
		next, reason, mismatch := step(cur, seg)
		if reason != "" {
			return nil, &ResolveError{At: renderPrefix(p.segs, i+1), Reason: reason, Mismatch: mismatch}
		}
		cur = next
	}
	return cur, nil
}

// step applies one segment to v. On failure it returns the reason and
// whether the failure is a type mismatch.
func step(v any, seg Segment) (next any, reason string, mismatch bool) {
	switch t := v.(type) {
	case map[string]any:
		if seg.IsIndex {
			return nil, fmt.Sprintf("cannot take index [%d] of an object (%s)", seg.Index, describeKeys(t)), true
		}
		val, ok := t[seg.Key]
		if !ok {
			return nil, fmt.Sprintf("key %s not found (%s)", quoteKey(seg.Key), describeKeys(t)), false
		}
		return val, "", false
	case []any:
		if !seg.IsIndex {
			if seg.Key == lengthKey {
				return json.Number(strconv.Itoa(len(t))), "", false
			}
			return nil, fmt.Sprintf("cannot take key %s of an array of length %d; use an index such as [0]", quoteKey(seg.Key), len(t)), true
		}
		i := seg.Index
		if i < 0 {
			i += len(t)
		}
		if i < 0 || i >= len(t) {
			return nil, fmt.Sprintf("index %d out of range (length %d)", seg.Index, len(t)), false
		}
		return t[i], "", false
	default:
		if seg.IsIndex {
			return nil, fmt.Sprintf("cannot take index [%d] of %s", seg.Index, Describe(v)), true
		}
		return nil, fmt.Sprintf("cannot take key %s of %s", quoteKey(seg.Key), Describe(v)), true
	}
}

// maxListedKeys bounds how many keys an error message lists.
const maxListedKeys = 10

// describeKeys lists an object's keys, sorted, for error messages.
func describeKeys(m map[string]any) string {
	if len(m) == 0 {
		return "the object is empty"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	more := ""
	if len(keys) > maxListedKeys {
		more = fmt.Sprintf(", … %d more", len(keys)-maxListedKeys)
		keys = keys[:maxListedKeys]
	}
	for i, k := range keys {
		if !isPlainKey(k) {
			keys[i] = quoteKey(k)
		}
	}
	return "keys: " + strings.Join(keys, ", ") + more
}

// maxPreview bounds how many characters of a string Describe shows.
const maxPreview = 40

// Describe renders a short, human description of a decoded JSON value for
// error messages: a string "hello", the number 3, an object with 2 keys.
func Describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		s := t
		if utf8.RuneCountInString(s) > maxPreview {
			s = string([]rune(s)[:maxPreview]) + "…"
		}
		return "a string " + strconv.Quote(s)
	case json.Number:
		return "the number " + t.String()
	case float64:
		return "the number " + strconv.FormatFloat(t, 'g', -1, 64)
	case bool:
		return "the boolean " + strconv.FormatBool(t)
	case map[string]any:
		return fmt.Sprintf("an object with %s", plural(len(t), "key"))
	case []any:
		return fmt.Sprintf("an array of length %d", len(t))
	default:
		return fmt.Sprintf("a value of Go type %T", v)
	}
}

// plural renders n and noun, adding an "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
