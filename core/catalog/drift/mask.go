package drift

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Masks replace volatile values so that two answers that differ only in
// them compare equal.
const (
	maskIgnored   = "<ignored>"
	maskTimestamp = "<timestamp>"
	maskUUID      = "<uuid>"
)

var (
	timestampRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?`)
	})
	uuidRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	})
)

// Mask returns the answer with its volatile parts masked: every "_meta"
// member removed (servers put request ids and timings there), timestamps
// and UUIDs inside strings replaced, and the values at the ignore
// pointers replaced by "<ignored>". The output has sorted keys.
func Mask(raw json.RawMessage, ignore []string) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("null"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	v = maskValue(v, 0)
	for _, p := range ignore {
		v = setPointer(v, splitPointer(p))
	}
	// Without HTML escaping, so the masks read as written in the state.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func maskValue(v any, depth int) any {
	if depth > 64 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		delete(t, "_meta")
		for k, x := range t {
			t[k] = maskValue(x, depth+1)
		}
	case []any:
		for i, x := range t {
			t[i] = maskValue(x, depth+1)
		}
	case string:
		s := timestampRe().ReplaceAllString(t, maskTimestamp)
		return uuidRe().ReplaceAllString(s, maskUUID)
	}
	return v
}

func splitPointer(p string) []string {
	if p == "" || p == "/" {
		return nil
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
}

// setPointer replaces the value at path by the ignore mask; a path that
// names nothing leaves v as it is (the field may come and go).
func setPointer(v any, path []string) any {
	if len(path) == 0 {
		return maskIgnored
	}
	switch t := v.(type) {
	case map[string]any:
		if x, ok := t[path[0]]; ok {
			t[path[0]] = setPointer(x, path[1:])
		}
	case []any:
		if path[0] == "*" {
			for i := range t {
				t[i] = setPointer(t[i], path[1:])
			}
			return t
		}
		if i, err := strconv.Atoi(path[0]); err == nil && i >= 0 && i < len(t) {
			t[i] = setPointer(t[i], path[1:])
		}
	}
	return v
}

// Shape renders a value's structure without its scalar values: object
// keys and value kinds. Two answers with the same shape differ only in
// content.
func Shape(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return "invalid"
	}
	var b strings.Builder
	shape(&b, v, 0)
	return b.String()
}

func shape(b *strings.Builder, v any, depth int) {
	if depth > 64 {
		b.WriteString("…")
		return
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sortStrings(keys)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.Quote(k) + ":")
			shape(b, t[k], depth+1)
		}
		b.WriteString("}")
	case []any:
		b.WriteString("[")
		for i, x := range t {
			if i > 0 {
				b.WriteString(",")
			}
			shape(b, x, depth+1)
		}
		b.WriteString("]")
	case string:
		b.WriteString("string")
	case json.Number:
		b.WriteString("number")
	case bool:
		b.WriteString("bool")
	default:
		b.WriteString("null")
	}
}
