// Package argsgen builds tool arguments from a tool's JSON input schema:
// Valid gives one deterministic set of arguments meant to be accepted
// (audit, generate), Cases gives schema-driven invalid and edge inputs
// (fuzz). It does no I/O.
package argsgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrSchema is wrapped when an input schema cannot be read.
var ErrSchema = errors.New("unreadable input schema")

// maxDepth bounds how deep Valid follows nested object schemas, so a
// recursive or hostile schema cannot make it loop.
const maxDepth = 8

// Schema is a decoded JSON Schema object (numbers kept as json.Number).
type Schema map[string]any

// Parse decodes an input schema; an empty or null one is an empty schema.
func Parse(raw json.RawMessage) (Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return Schema{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var s Schema
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSchema, err)
	}
	return s, nil
}

// Properties returns the schema's properties, in name order.
func (s Schema) Properties() []string {
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Property returns the schema of one property (empty when absent or not
// an object).
func (s Schema) Property(name string) Schema {
	props, _ := s["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return Schema(p)
}

// Required returns the names listed in required, in order, without
// repeats.
func (s Schema) Required() []string {
	list, _ := s["required"].([]any)
	seen := map[string]bool{}
	var out []string
	for _, v := range list {
		if n, ok := v.(string); ok && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// Type returns the schema's type; for a list of types, the first that is
// not "null"; for no type, one inferred from enum, const or properties.
func (s Schema) Type() string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, v := range t {
			if n, ok := v.(string); ok && n != "null" {
				return n
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	if _, ok := s["items"]; ok {
		return "array"
	}
	for _, key := range []string{"const", "default"} {
		if v, ok := s[key]; ok {
			return jsonType(v)
		}
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return jsonType(e[0])
	}
	return ""
}

func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			return "number"
		}
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}

// Valid returns arguments meant to be accepted: every required property
// with a value its schema allows. Optional ones are left out (the server
// picks their defaults), except those whose default asks for a long wait
// (a duration of 10 seconds), which get the smallest value allowed. The
// same schema always gives the same arguments.
func Valid(s Schema) map[string]any {
	out, _ := value(s, "", 0).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	for _, n := range s.Properties() {
		p := s.Property(n)
		if _, ok := out[n]; ok || !isSlowDefault(n, p["default"]) {
			continue
		}
		out[n] = value(p, n, 1)
	}
	return out
}

// Value returns a valid value for a schema; name is the property's name,
// used as the text of a plain string.
func Value(s Schema, name string) any { return value(s, name, 0) }

func value(s Schema, name string, depth int) any {
	if v, ok := s["const"]; ok {
		return v
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if v, ok := s["default"]; ok && !isSlowDefault(name, v) {
		return v
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[key].([]any); ok && len(alts) > 0 {
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok && Schema(m).Type() != "null" {
					return value(Schema(m), name, depth)
				}
			}
		}
	}
	switch s.Type() {
	case "object":
		obj := map[string]any{}
		if depth >= maxDepth {
			return obj
		}
		for _, n := range s.Required() {
			obj[n] = value(s.Property(n), n, depth+1)
		}
		return obj
	case "array":
		n := intOf(s["minItems"], 0)
		items, _ := s["items"].(map[string]any)
		arr := make([]any, 0, n)
		for i := 0; i < n && i < 16; i++ {
			arr = append(arr, value(Schema(items), name, depth+1))
		}
		return arr
	case "integer":
		return json.Number(fmt.Sprint(intIn(s)))
	case "number":
		return json.Number(fmt.Sprint(intIn(s)))
	case "boolean":
		return false
	case "null":
		return nil
	}
	return stringFor(s, name)
}

// isSlowDefault keeps defaults that name a long wait (a duration of
// several seconds, as server-everything's long-running operation has) out
// of generated arguments: the smallest allowed value exercises the same
// code without making every run wait.
func isSlowDefault(name string, v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := n.Float64()
	if err != nil {
		return false
	}
	l := strings.ToLower(name)
	return f > 1 && (strings.Contains(l, "duration") || strings.Contains(l, "delay") || strings.Contains(l, "sleep") ||
		strings.Contains(l, "timeout") || strings.Contains(l, "wait") || strings.Contains(l, "steps"))
}

// intIn picks 1 when allowed, else the closest allowed integer.
func intIn(s Schema) int64 {
	v := int64(1)
	if m, ok := num(s["minimum"]); ok && float64(v) < m {
		v = ceil(m)
	}
	if m, ok := num(s["exclusiveMinimum"]); ok && float64(v) <= m {
		v = ceil(m + 0.5)
	}
	if m, ok := num(s["maximum"]); ok && float64(v) > m {
		v = floor(m)
	}
	if m, ok := num(s["exclusiveMaximum"]); ok && float64(v) >= m {
		v = floor(m - 0.5)
	}
	return v
}

func ceil(f float64) int64 {
	i := int64(f)
	if float64(i) < f {
		i++
	}
	return i
}

func floor(f float64) int64 {
	i := int64(f)
	if float64(i) > f {
		i--
	}
	return i
}

func num(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func intOf(v any, def int) int {
	if f, ok := num(v); ok && f >= 0 && f < 1<<20 {
		return int(f)
	}
	return def
}

// stringFor returns a string of the schema's format, or the property's
// name, fitted to minLength and maxLength.
func stringFor(s Schema, name string) string {
	var v string
	switch s["format"] {
	case "date-time":
		v = "2025-01-01T00:00:00Z"
	case "date":
		v = "2025-01-01"
	case "time":
		v = "00:00:00Z"
	case "email":
		v = "user@example.com"
	case "uri", "url", "iri":
		v = "https://example.com/"
	case "uuid":
		v = "00000000-0000-4000-8000-000000000000"
	case "ipv4":
		v = "127.0.0.1"
	case "ipv6":
		v = "::1"
	case "hostname":
		v = "example.com"
	default:
		v = name
		if v == "" {
			v = "text"
		}
	}
	if min := intOf(s["minLength"], 0); len(v) < min {
		v += strings.Repeat("x", min-len(v))
	}
	if max, ok := num(s["maxLength"]); ok && float64(len(v)) > max && max >= 0 {
		v = v[:int(max)]
	}
	return v
}
