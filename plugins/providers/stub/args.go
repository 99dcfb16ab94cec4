package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// maxSchemaDepth bounds the walk of a tool's input schema (and of $ref
// chains in it), so a cyclic or hostile schema ends.
const maxSchemaDepth = 32

var errSchemaDepth = errors.New("input schema nests deeper than 32 levels")

// argumentsFor builds the arguments the stub passes to a tool: a value
// valid against schema, made of the required properties only. A missing
// schema gives {}.
func argumentsFor(schema json.RawMessage) (json.RawMessage, error) {
	if len(schema) == 0 || string(schema) == "null" {
		return json.RawMessage(`{}`), nil
	}
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("input schema is not a JSON object: %w", err)
	}
	g := argGen{root: root}
	v, err := g.value(root, 0)
	if err != nil {
		return nil, err
	}
	if v == nil {
		v = map[string]any{}
	}
	return json.Marshal(v)
}

type argGen struct{ root map[string]any }

// value is the simplest value valid against s.
func (g argGen) value(s map[string]any, depth int) (any, error) {
	if depth > maxSchemaDepth {
		return nil, errSchemaDepth
	}
	if ref, ok := s["$ref"].(string); ok {
		target, err := g.resolve(ref)
		if err != nil {
			return nil, err
		}
		return g.value(target, depth+1)
	}
	if c, ok := s["const"]; ok {
		return c, nil
	}
	if d, ok := s["default"]; ok {
		return d, nil
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0], nil
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			if first, ok := alts[0].(map[string]any); ok && s["type"] == nil && s["properties"] == nil {
				return g.value(first, depth+1)
			}
		}
	}
	switch typeOf(s) {
	case "object":
		return g.object(s, depth)
	case "array":
		return g.array(s, depth)
	case "string":
		return stringFor(s), nil
	case "integer":
		return integerFor(s), nil
	case "number":
		return numberFor(s), nil
	case "boolean":
		return false, nil
	case "null":
		return nil, nil
	}
	return "stub", nil
}

// typeOf is the schema's type, the first non-null one of a list, or what
// its keywords imply.
func typeOf(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if str, ok := x.(string); ok && str != "null" {
				return str
			}
		}
		return "null"
	}
	switch {
	case s["properties"] != nil || s["required"] != nil:
		return "object"
	case s["items"] != nil:
		return "array"
	}
	return ""
}

func (g argGen) object(s map[string]any, depth int) (any, error) {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	req, _ := s["required"].([]any)
	for _, r := range req {
		name, ok := r.(string)
		if !ok {
			continue
		}
		ps, _ := props[name].(map[string]any)
		if ps == nil {
			out[name] = "stub"
			continue
		}
		v, err := g.value(ps, depth+1)
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

func (g argGen) array(s map[string]any, depth int) (any, error) {
	n := int(num(s, "minItems", 0))
	out := make([]any, 0, n)
	items, _ := s["items"].(map[string]any)
	for range n {
		if items == nil {
			out = append(out, "stub")
			continue
		}
		v, err := g.value(items, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Values of string formats that a validator checks.
var formatValues = map[string]string{
	"date-time": "1970-01-01T00:00:00Z",
	"date":      "1970-01-01",
	"time":      "00:00:00Z",
	"email":     "stub@example.com",
	"uri":       "https://example.com/",
	"url":       "https://example.com/",
	"uuid":      "00000000-0000-0000-0000-000000000000",
	"hostname":  "example.com",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
}

func stringFor(s map[string]any) string {
	if f, ok := s["format"].(string); ok {
		if v, ok := formatValues[f]; ok {
			return v
		}
	}
	v := "stub"
	if minLen := int(num(s, "minLength", 0)); len(v) < minLen {
		v += strings.Repeat("x", minLen-len(v))
	}
	if maxLen, ok := s["maxLength"].(float64); ok && len(v) > int(maxLen) {
		v = v[:int(maxLen)]
	}
	return v
}

func integerFor(s map[string]any) int64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	if m, ok := s["minimum"].(float64); ok {
		lo = math.Ceil(m)
	}
	if m, ok := s["exclusiveMinimum"].(float64); ok {
		lo = math.Max(lo, math.Floor(m)+1)
	}
	if m, ok := s["maximum"].(float64); ok {
		hi = math.Floor(m)
	}
	if m, ok := s["exclusiveMaximum"].(float64); ok {
		hi = math.Min(hi, math.Ceil(m)-1)
	}
	return int64(pick(lo, hi))
}

func numberFor(s map[string]any) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	loEx, hiEx := false, false
	if m, ok := s["minimum"].(float64); ok {
		lo = m
	}
	if m, ok := s["exclusiveMinimum"].(float64); ok && m >= lo {
		lo, loEx = m, true
	}
	if m, ok := s["maximum"].(float64); ok {
		hi = m
	}
	if m, ok := s["exclusiveMaximum"].(float64); ok && m <= hi {
		hi, hiEx = m, true
	}
	inside := func(v float64) bool {
		return (v > lo || (!loEx && v == lo)) && (v < hi || (!hiEx && v == hi))
	}
	for _, v := range []float64{0, lo, lo + 1, hi, hi - 1} {
		if !math.IsInf(v, 0) && inside(v) {
			return v
		}
	}
	return (lo + hi) / 2
}

// pick is 0 when the bounds allow it, else the bound nearest to 0.
func pick(lo, hi float64) float64 {
	switch {
	case lo > 0:
		return lo
	case hi < 0:
		return hi
	}
	return 0
}

func num(s map[string]any, key string, def float64) float64 {
	if v, ok := s[key].(float64); ok {
		return v
	}
	return def
}

// resolve follows a local JSON pointer ($ref "#/$defs/x"); other
// references are refused, as the schema matcher refuses them.
func (g argGen) resolve(ref string) (map[string]any, error) {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("input schema $ref %q is not local", ref)
	}
	var cur any = g.root
	for _, tok := range slices.DeleteFunc(strings.Split(ptr, "/"), func(s string) bool { return s == "" }) {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("input schema $ref %q does not resolve", ref)
		}
		if cur, ok = m[tok]; !ok {
			return nil, fmt.Errorf("input schema $ref %q does not resolve", ref)
		}
	}
	m, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input schema $ref %q is not a schema", ref)
	}
	return m, nil
}
