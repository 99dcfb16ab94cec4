package catalog

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// maxSchemaDepth bounds the recursion into nested schemas, so a deeply
// nested (or hostile) schema cannot exhaust the stack.
const maxSchemaDepth = 32

// schemaDiff compares the schemas of one entry. Input schemas and output
// schemas are compared in opposite directions: a client sends inputs (a
// schema that accepts less breaks it) and reads outputs (a schema that
// promises less breaks it).
type schemaDiff struct {
	d    *differ
	kind string
	name string
}

type schema = map[string]any

// decodeSchema decodes a raw schema; anything that is not an object is
// treated as the empty schema (anything goes).
func decodeSchema(raw json.RawMessage) schema {
	var s schema
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

// input compares an input schema at path.
func (s *schemaDiff) input(path string, old, new schema) {
	s.inputAt(path, old, new, 0)
}

func (s *schemaDiff) inputAt(path string, old, new schema, depth int) {
	if depth > maxSchemaDepth {
		return
	}
	s.d.text(RuleDescriptionChanged, s.kind, s.name, path+"/description", "description of "+label(path), str(old["description"]), str(new["description"]))
	ot, nt := types(old), types(new)
	switch {
	case len(ot) == 0 && len(nt) > 0:
		s.d.add(RuleTypeChanged, s.kind, s.name, path+"/type", "%s %s: %s now must be %s (any type was accepted)", s.kind, s.name, label(path), strings.Join(nt, " or "))
	case len(nt) == 0 && len(ot) > 0:
		s.d.add(RuleTypeWidened, s.kind, s.name, path+"/type", "%s %s: %s now accepts any type (was %s)", s.kind, s.name, label(path), strings.Join(ot, " or "))
	case !slices.Equal(ot, nt) && subset(ot, nt):
		s.d.add(RuleTypeWidened, s.kind, s.name, path+"/type", "%s %s: %s type widened from %s to %s", s.kind, s.name, label(path), strings.Join(ot, " or "), strings.Join(nt, " or "))
	case !slices.Equal(ot, nt):
		s.d.add(RuleTypeChanged, s.kind, s.name, path+"/type", "%s %s: %s type changed from %s to %s", s.kind, s.name, label(path), strings.Join(ot, " or "), strings.Join(nt, " or "))
	}
	oe, oHas := enum(old)
	ne, nHas := enum(new)
	switch {
	case oHas && nHas:
		for _, v := range oe {
			if !slices.Contains(ne, v) {
				s.d.add(RuleEnumValueRemoved, s.kind, s.name, path+"/enum/"+enumSeg(v), "%s %s: %s no longer accepts %s", s.kind, s.name, label(path), v)
			}
		}
		for _, v := range ne {
			if !slices.Contains(oe, v) {
				s.d.add(RuleEnumValueAdded, s.kind, s.name, path+"/enum/"+enumSeg(v), "%s %s: %s now also accepts %s", s.kind, s.name, label(path), v)
			}
		}
	case !oHas && nHas:
		s.d.add(RuleEnumValueRemoved, s.kind, s.name, path+"/enum", "%s %s: %s is now limited to %s", s.kind, s.name, label(path), strings.Join(ne, ", "))
	case oHas && !nHas:
		s.d.add(RuleEnumValueAdded, s.kind, s.name, path+"/enum", "%s %s: %s is no longer limited to an enum", s.kind, s.name, label(path))
	}
	oldProps, newProps := props(old), props(new)
	oldReq, newReq := required(old), required(new)
	for _, p := range union(keys(oldProps), oldReq) {
		pp := path + "/properties/" + escapePointer(p)
		np, inNew := newProps[p]
		if !inNew && !slices.Contains(newReq, p) {
			s.d.add(RulePropertyRemoved, s.kind, s.name, pp, "%s %s: %s was removed", s.kind, s.name, label(pp))
			continue
		}
		switch oReq, nReq := slices.Contains(oldReq, p), slices.Contains(newReq, p); {
		case !oReq && nReq:
			s.d.add(RuleMadeRequired, s.kind, s.name, pp, "%s %s: %s is now required", s.kind, s.name, label(pp))
		case oReq && !nReq:
			s.d.add(RuleRequirementRelaxed, s.kind, s.name, pp, "%s %s: %s is now optional", s.kind, s.name, label(pp))
		}
		if op, ok := oldProps[p]; ok && inNew {
			s.inputAt(pp, op, np, depth+1)
		}
	}
	for _, p := range union(keys(newProps), newReq) {
		if _, ok := oldProps[p]; ok || slices.Contains(oldReq, p) {
			continue
		}
		pp := path + "/properties/" + escapePointer(p)
		if slices.Contains(newReq, p) {
			s.d.add(RuleRequiredAdded, s.kind, s.name, pp, "%s %s: new required %s", s.kind, s.name, label(pp))
		} else {
			s.d.add(RuleOptionalAdded, s.kind, s.name, pp, "%s %s: new optional %s", s.kind, s.name, label(pp))
		}
	}
	if oi, ok := old["items"].(schema); ok {
		if ni, ok := new["items"].(schema); ok {
			s.inputAt(path+"/items", oi, ni, depth+1)
		}
	}
}

// outputRoot compares output schemas, including their presence.
func (s *schemaDiff) outputRoot(oldRaw, newRaw json.RawMessage) {
	old, new := decodeSchema(oldRaw), decodeSchema(newRaw)
	switch {
	case old == nil && new == nil:
	case old == nil:
		s.d.add(RuleOutputWidened, s.kind, s.name, "/outputSchema", "%s %s: now declares an output schema", s.kind, s.name)
	case new == nil:
		s.d.add(RuleOutputNarrowed, s.kind, s.name, "/outputSchema", "%s %s: no longer declares an output schema (structured output is no longer promised)", s.kind, s.name)
	default:
		s.output("/outputSchema", old, new, 0)
	}
}

func (s *schemaDiff) output(path string, old, new schema, depth int) {
	if depth > maxSchemaDepth {
		return
	}
	s.d.text(RuleDescriptionChanged, s.kind, s.name, path+"/description", "description of "+label(path), str(old["description"]), str(new["description"]))
	ot, nt := types(old), types(new)
	switch {
	case slices.Equal(ot, nt):
	case len(ot) > 0 && len(nt) > 0 && subset(nt, ot):
		s.d.add(RuleOutputWidened, s.kind, s.name, path+"/type", "%s %s: %s type is now only %s (was %s)", s.kind, s.name, label(path), strings.Join(nt, " or "), strings.Join(ot, " or "))
	default:
		s.d.add(RuleOutputNarrowed, s.kind, s.name, path+"/type", "%s %s: %s type changed from %s to %s", s.kind, s.name, label(path), orAny(ot), orAny(nt))
	}
	oe, oHas := enum(old)
	ne, nHas := enum(new)
	if oHas {
		for _, v := range ne {
			if !slices.Contains(oe, v) {
				s.d.add(RuleOutputNarrowed, s.kind, s.name, path+"/enum/"+enumSeg(v), "%s %s: %s may now be %s, a value clients have not seen", s.kind, s.name, label(path), v)
			}
		}
		if !nHas {
			s.d.add(RuleOutputNarrowed, s.kind, s.name, path+"/enum", "%s %s: %s is no longer limited to an enum", s.kind, s.name, label(path))
		}
	}
	oldProps, newProps := props(old), props(new)
	oldReq, newReq := required(old), required(new)
	for _, p := range keys(oldProps) {
		pp := path + "/properties/" + escapePointer(p)
		np, ok := newProps[p]
		if !ok {
			s.d.add(RuleOutputNarrowed, s.kind, s.name, pp, "%s %s: %s was removed", s.kind, s.name, label(pp))
			continue
		}
		if slices.Contains(oldReq, p) && !slices.Contains(newReq, p) {
			s.d.add(RuleOutputNarrowed, s.kind, s.name, pp, "%s %s: %s is no longer always present", s.kind, s.name, label(pp))
		}
		s.output(pp, oldProps[p], np, depth+1)
	}
	for _, p := range keys(newProps) {
		if _, ok := oldProps[p]; !ok {
			pp := path + "/properties/" + escapePointer(p)
			s.d.add(RuleOutputWidened, s.kind, s.name, pp, "%s %s: new %s", s.kind, s.name, label(pp))
		}
	}
	if oi, ok := old["items"].(schema); ok {
		if ni, ok := new["items"].(schema); ok {
			s.output(path+"/items", oi, ni, depth+1)
		}
	}
}

// label names a schema location for a message: "argument limit",
// "property a.b", "output property sum".
func label(path string) string {
	out := strings.HasPrefix(path, "/outputSchema")
	var parts []string
	segs := strings.Split(path, "/")
	for i := 0; i < len(segs); i++ {
		switch segs[i] {
		case "properties":
			if i+1 < len(segs) {
				parts = append(parts, unescapePointer(segs[i+1]))
				i++
			}
		case "items":
			parts = append(parts, "[]")
		}
	}
	name := strings.ReplaceAll(strings.Join(parts, "."), ".[]", "[]")
	switch {
	case name == "" && out:
		return "the output"
	case name == "":
		return "the arguments"
	case out:
		return "output property " + name
	case len(parts) == 1:
		return "argument " + name
	}
	return "property " + name
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// types returns the sorted type names of a schema; empty means any.
// "integer" is folded into "number" only when both appear.
func types(s schema) []string {
	var out []string
	switch t := s["type"].(type) {
	case string:
		out = []string{t}
	case []any:
		for _, v := range t {
			if name, ok := v.(string); ok {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// subset reports whether every type in a is accepted by b ("integer" is
// accepted by "number").
func subset(a, b []string) bool {
	for _, t := range a {
		if !slices.Contains(b, t) && !(t == "integer" && slices.Contains(b, "number")) {
			return false
		}
	}
	return true
}

func orAny(t []string) string {
	if len(t) == 0 {
		return "any"
	}
	return strings.Join(t, " or ")
}

// enum returns a schema's enum values (as canonical JSON) and whether it
// has one; a const counts as a one-value enum.
func enum(s schema) ([]string, bool) {
	vals, ok := s["enum"].([]any)
	if !ok {
		if c, has := s["const"]; has {
			vals, ok = []any{c}, true
		}
	}
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		out = append(out, canonical(v))
	}
	return out, true
}

func props(s schema) map[string]schema {
	out := map[string]schema{}
	if p, ok := s["properties"].(map[string]any); ok {
		for k, v := range p {
			sv, _ := v.(map[string]any)
			if sv == nil {
				sv = schema{}
			}
			out[k] = sv
		}
	}
	return out
}

func required(s schema) []string {
	var out []string
	if r, ok := s["required"].([]any); ok {
		for _, v := range r {
			if name, ok := v.(string); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

func keys(m map[string]schema) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// union returns the sorted distinct names of a and b.
func union(a, b []string) []string {
	out := append(append([]string{}, a...), b...)
	sort.Strings(out)
	return slices.Compact(out)
}

// escapePointer escapes a JSON pointer segment (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// enumSeg is the pointer segment of an enum value: a string unquoted,
// anything else as JSON.
func enumSeg(v string) string {
	var s string
	if json.Unmarshal([]byte(v), &s) == nil {
		return escapePointer(s)
	}
	return escapePointer(v)
}
