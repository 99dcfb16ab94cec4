package argsgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Case is one fuzz input for a tool.
type Case struct {
	// Label names the mutation, stable across runs: "null arguments",
	// "message: wrong type (number)", ...
	Label string
	// Category groups labels: structure, type, boundary, string, nesting,
	// extra, injection, random.
	Category string
	// Arguments is the JSON sent as params.arguments. Nil means the field
	// is left out; the JSON literal null is sent as null.
	Arguments json.RawMessage
}

// Categories are the fuzz categories, in the order Cases emits them.
var Categories = []string{"structure", "type", "boundary", "string", "nesting", "extra", "injection", "random"}

// deepLevels is how deeply the nesting case nests; deep enough to trip
// recursive handlers and naive parsers, small enough to stay a few KB.
const deepLevels = 512

// hugeLen is the length of the huge string case.
const hugeLen = 100_000

var injections = []string{
	"'; DROP TABLE users; --",
	"../../../../../../etc/passwd",
	"$(id)`id`",
	"{{7*7}}${7*7}",
	"<script>alert(1)</script>",
	"%s%s%s%n",
}

var oddStrings = []struct{ label, value string }{
	{"empty string", ""},
	{"whitespace", " \t\n "},
	{"NUL byte", "a\x00b"},
	{"unicode", "héllo 世界 🙂 \u202eRTL\u200b"},
	{"newlines", "line1\nline2\r\nline3"},
}

// Cases returns the fuzz inputs for a tool whose input schema is s: the
// fixed catalogue first (null and missing arguments, an empty object, each
// required property left out, then per property wrong types, boundary
// numbers, odd, huge and injection-looking strings, deep nesting, an extra
// property), then seeded random mutations of the valid arguments until
// runs cases exist. With runs smaller than the catalogue, the structural
// cases are always kept and the rest is a seeded choice, so the same seed
// and runs give the same cases.
func Cases(s Schema, seed uint64, runs int) []Case {
	valid := Valid(s)
	all := catalogue(s, valid)
	rng := rand.New(rand.NewPCG(seed, 0x6d637074657374))
	if runs <= 0 {
		runs = len(all)
	}
	if runs < len(all) {
		var keep, rest []Case
		for _, c := range all {
			if c.Category == "structure" {
				keep = append(keep, c)
			} else {
				rest = append(rest, c)
			}
		}
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		if runs > len(keep) {
			keep = append(keep, rest[:runs-len(keep)]...)
		}
		if len(keep) > runs {
			keep = keep[:runs]
		}
		return keep
	}
	for i := 0; len(all) < runs; i++ {
		all = append(all, randomCase(s, valid, rng, i))
	}
	return all
}

func catalogue(s Schema, valid map[string]any) []Case {
	var out []Case
	add := func(cat, label string, args any) {
		out = append(out, Case{Label: label, Category: cat, Arguments: encode(args)})
	}
	out = append(out, Case{Label: "null arguments", Category: "structure", Arguments: json.RawMessage("null")})
	out = append(out, Case{Label: "missing arguments", Category: "structure"})
	add("structure", "empty object", map[string]any{})
	add("structure", "arguments as an array", []any{})
	for _, n := range s.Required() {
		args := clone(valid)
		delete(args, n)
		add("structure", n+": left out", args)
	}
	props := s.Properties()
	for _, n := range props {
		p := s.Property(n)
		with := func(cat, label string, v any) {
			args := clone(valid)
			args[n] = v
			add(cat, n+": "+label, args)
		}
		for _, w := range wrongTypes(p.Type()) {
			with("type", "wrong type ("+w.label+")", w.value)
		}
		with("type", "null", nil)
		switch p.Type() {
		case "integer", "number":
			for _, b := range boundaries(p) {
				with("boundary", b.label, b.value)
			}
		case "string", "":
			for _, o := range oddStrings {
				with("string", o.label, o.value)
			}
			with("string", "huge string", strings.Repeat("A", hugeLen))
			for i, inj := range injections {
				with("injection", fmt.Sprintf("injection %d", i+1), inj)
			}
		case "array":
			with("boundary", "empty array", []any{})
			with("boundary", "1000 elements", make([]any, 1000))
			with("type", "mixed element types", []any{json.Number("1"), "two", nil, true, map[string]any{}})
			with("nesting", "deep nesting", deepArray(deepLevels))
		case "object":
			with("boundary", "empty object", map[string]any{})
			with("nesting", "deep nesting", deepObject(deepLevels))
		}
	}
	args := clone(valid)
	args["__mcptest_unexpected"] = "extra"
	add("extra", "extra property", args)
	if len(props) == 0 {
		add("nesting", "deep nesting", map[string]any{"value": deepArray(deepLevels)})
		add("injection", "injection", map[string]any{"input": injections[0]})
	}
	return out
}

type labelled struct {
	label string
	value any
}

func wrongTypes(t string) []labelled {
	all := []labelled{
		{"string", "not-a-number"},
		{"number", json.Number("12345")},
		{"boolean", true},
		{"array", []any{"x"}},
		{"object", map[string]any{"x": json.Number("1")}},
	}
	var out []labelled
	for _, w := range all {
		if w.label == t || (t == "integer" && w.label == "number") || (t == "number" && w.label == "number") {
			continue
		}
		out = append(out, w)
	}
	return out
}

func boundaries(p Schema) []labelled {
	out := []labelled{
		{"zero", json.Number("0")},
		{"negative", json.Number("-1")},
		{"beyond 2^53", json.Number("9007199254740993")},
		{"huge", json.Number("1e308")},
		{"huge negative", json.Number("-1e308")},
		{"fraction", json.Number("0.5")},
	}
	if m, ok := num(p["minimum"]); ok {
		out = append(out, labelled{"below minimum", json.Number(fmt.Sprint(m - 1))})
	}
	if m, ok := num(p["maximum"]); ok {
		out = append(out, labelled{"above maximum", json.Number(fmt.Sprint(m + 1))})
	}
	return out
}

func deepArray(n int) any {
	var v any = json.Number("1")
	for i := 0; i < n; i++ {
		v = []any{v}
	}
	return v
}

func deepObject(n int) any {
	var v any = json.Number("1")
	for i := 0; i < n; i++ {
		v = map[string]any{"a": v}
	}
	return v
}

// randomCase mutates one property (or adds one) of the valid arguments
// with a value drawn from every category.
func randomCase(s Schema, valid map[string]any, rng *rand.Rand, i int) Case {
	props := s.Properties()
	pool := []any{nil, true, false, json.Number("0"), json.Number("-1"), json.Number(fmt.Sprint(rng.Int64())), "",
		strings.Repeat("Z", 1+rng.IntN(4096)), injections[rng.IntN(len(injections))], oddStrings[rng.IntN(len(oddStrings))].value,
		[]any{}, map[string]any{}, deepArray(1 + rng.IntN(64))}
	args := clone(valid)
	name := fmt.Sprintf("__mcptest_random_%d", rng.IntN(1000))
	if len(props) > 0 {
		name = props[rng.IntN(len(props))]
	}
	k := rng.IntN(len(pool))
	args[name] = pool[k]
	return Case{Label: fmt.Sprintf("random %d: %s", i+1, name), Category: "random", Arguments: encode(args)}
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func encode(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return raw
}
