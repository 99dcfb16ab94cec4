package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// assertionKeys are the keys of one entry of an expect block.
var assertionKeys = yamlpos.NewObjectSpec("an assertion",
	yamlpos.RequiredKey("target"),
	yamlpos.RequiredKey("matcher"),
	yamlpos.Key("message"),
	yamlpos.Key("transform"),
	yamlpos.Key("weight"),
	yamlpos.Key("name"),
	yamlpos.Key("assert-set").AsAlone(),
).WithMisplaced(map[string]string{
	"max_duration_ms":         "step budgets go in the long form of expect: {assertions: [...], max_duration_ms: 500}",
	"max_response_tokens":     "step budgets go in the long form of expect: {assertions: [...], max_response_tokens: 100}",
	"response_headers":        "header checks go in the long form of expect: {assertions: [...], response_headers: {...}}",
	"response_headers_absent": "header checks go in the long form of expect: {assertions: [...], response_headers_absent: [...]}",
	"threshold":               "threshold is set on the test, or on an assert-set",
})

// assertSetKeys are the keys of an assert-set.
var assertSetKeys = yamlpos.NewObjectSpec("an assert-set",
	yamlpos.RequiredKey("assertions"),
	yamlpos.Key("name"),
	yamlpos.Key("threshold"),
	yamlpos.Key("weight"),
)

// expectKeys are the keys of the long form of expect.
var expectKeys = yamlpos.NewObjectSpec("the long form of expect",
	yamlpos.RequiredKey("assertions"),
	yamlpos.Key("max_duration_ms"),
	yamlpos.Key("max_response_tokens"),
	yamlpos.Key("response_headers"),
	yamlpos.Key("response_headers_absent"),
)

// tokenBudgetKeys are the keys of the long form of max_response_tokens.
var tokenBudgetKeys = yamlpos.NewObjectSpec("max_response_tokens",
	yamlpos.RequiredKey("budget"),
	yamlpos.Key("tokenizer"),
	yamlpos.Key("mode"),
	yamlpos.Key("image_cost"),
)

// headerCheckKeys are the predicates of one response_headers entry.
var headerCheckKeys = yamlpos.NewObjectSpec("a header check",
	yamlpos.Key("regex"),
	yamlpos.Key("schema"),
	yamlpos.Key("exists"),
	yamlpos.Key("contains"),
)

// expect reads an expect block: an array of assertions, or the long form,
// an object with assertions: and step-level checks.
func (l *loader) expect(n *yaml.Node, ptr string) ([]*Assertion, *ExpectOptions) {
	d := yamlpos.Deref(n)
	switch d.Kind {
	case yaml.SequenceNode:
		return l.assertions(d, ptr, true), nil
	case yaml.MappingNode:
		if !yamlpos.HasKey(d, "assertions") && (yamlpos.HasKey(d, "target") || yamlpos.HasKey(d, "matcher")) {
			l.C.Add(n, ptr, "expected expect (an array of assertions), found an object",
				"start each assertion with \"- \"")
			return nil, nil
		}
		return l.expectLong(n, ptr)
	}
	l.C.Add(n, ptr, "expected expect (an array of assertions), found "+yamlpos.Describe(d), "")
	return nil, nil
}

// assertions reads an array of assertions; sets says whether assert-sets
// are allowed (they do not nest).
func (l *loader) assertions(d *yaml.Node, ptr string, sets bool) []*Assertion {
	out := make([]*Assertion, 0, len(d.Content))
	for i, item := range d.Content {
		if a := l.assertion(item, yamlpos.Index(ptr, i), sets); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// expectLong reads the long form of expect.
func (l *loader) expectLong(n *yaml.Node, ptr string) ([]*Assertion, *ExpectOptions) {
	f, ok := l.Object(n, ptr, expectKeys)
	if !ok {
		return nil, nil
	}
	o := &ExpectOptions{Pos: l.pos(n, ptr)}
	var list []*Assertion
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "assertions":
			if items, ok := l.seq(e.Value, ep, "assertions"); ok {
				list = l.assertions(&yaml.Node{Kind: yaml.SequenceNode, Content: items}, ep, true)
			}
		case "max_duration_ms":
			o.MaxDurationMS, _ = l.PositiveInt(e.Value, ep, "max_duration_ms")
		case "max_response_tokens":
			o.MaxResponseTokens = l.tokenBudget(e.Value, ep)
		case "response_headers":
			o.ResponseHeaders = l.headerChecks(e.Value, ep)
		case "response_headers_absent":
			names, ok := l.StringList(e.Value, ep, "response_headers_absent", true)
			if ok {
				for i, name := range names {
					if !l.headerName(yamlpos.Deref(e.Value).Content[i], yamlpos.Index(ep, i), name) {
						ok = false
					}
				}
			}
			o.ResponseHeadersAbsent = names
		}
	}
	return list, o
}

// assertion reads one assertion or assert-set.
func (l *loader) assertion(n *yaml.Node, ptr string, sets bool) *Assertion {
	f, ok := l.Object(n, ptr, assertionKeys)
	if !ok {
		return nil
	}
	a := l.assertSlab.new()
	*a = Assertion{Weight: 1, Pos: l.pos(n, ptr)}
	if sn, sp := f.Get("assert-set"); sn != nil {
		for _, e := range f.Entries {
			if e.Key != "assert-set" {
				l.C.Add(e.KeyNode, yamlpos.Child(ptr, e.Key), fmt.Sprintf("%q does not go beside assert-set", e.Key),
					"put it on the set's assertions, or inside the assert-set")
			}
		}
		if !sets {
			l.C.Add(f.KeyNode("assert-set"), sp, "assert-sets do not nest", "list the inner assertions directly")
			return nil
		}
		a.Set = l.assertSet(f.KeyNode("assert-set"), sn, sp)
		if a.Set == nil {
			return nil
		}
		a.Name, a.Weight = a.Set.Name, a.Set.Weight
		return a
	}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "target":
			a.Target, _ = l.Str(e.Value, ep, "target")
		case "matcher":
			a.Matcher = l.matcher(e.Value, ep)
		case "message":
			a.Message, _ = l.Str(e.Value, ep, "message")
		case "name":
			a.Name, _ = l.NonEmptyStr(e.Value, ep, "the assertion name")
		case "weight":
			a.Weight, _ = l.PositiveNumber(e.Value, ep, "weight")
		case "transform":
			a.Transform = l.commandLine(e.Value, ep, "a transform command")
		}
	}
	return a
}

// assertSet reads the value of an assert-set key.
func (l *loader) assertSet(at, n *yaml.Node, ptr string) *AssertSet {
	f, ok := l.Object(n, ptr, assertSetKeys)
	if !ok {
		return nil
	}
	s := &AssertSet{Threshold: 1, Weight: 1, Pos: l.pos(at, ptr)}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "name":
			s.Name, _ = l.NonEmptyStr(e.Value, ep, "the set name")
		case "threshold":
			s.Threshold, _ = l.Fraction(e.Value, ep, "threshold")
		case "weight":
			s.Weight, _ = l.PositiveNumber(e.Value, ep, "weight")
		case "assertions":
			if items, ok := l.nonEmptySeq(e.Value, ep, "assertions"); ok {
				s.Assertions = l.assertions(&yaml.Node{Kind: yaml.SequenceNode, Content: items}, ep, false)
			}
		}
	}
	return s
}

// tokenBudget reads max_response_tokens: an integer, or the long form.
func (l *loader) tokenBudget(n *yaml.Node, ptr string) *TokenBudget {
	if yamlpos.Deref(n).Kind != yaml.MappingNode {
		v, ok := l.PositiveInt(n, ptr, "max_response_tokens")
		if !ok {
			return nil
		}
		return &TokenBudget{Budget: v}
	}
	f, ok := l.Object(n, ptr, tokenBudgetKeys)
	if !ok {
		return nil
	}
	t := &TokenBudget{}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "budget":
			t.Budget, _ = l.PositiveInt(e.Value, ep, "budget")
		case "tokenizer":
			t.Tokenizer, _ = l.NonEmptyStr(e.Value, ep, "tokenizer")
		case "mode":
			t.Mode, _ = l.NonEmptyStr(e.Value, ep, "mode")
		case "image_cost":
			if v, ok := l.IntRange(e.Value, ep, "image_cost", 0, 1<<30); ok {
				t.ImageCost = &v
			}
		}
	}
	return t
}

// headerChecks reads response_headers: header names to a string (the
// exact value) or an object with one predicate.
func (l *loader) headerChecks(n *yaml.Node, ptr string) []*HeaderCheck {
	es, ok := l.Mapping(n, ptr, "response_headers (an object of header names)")
	if !ok {
		return nil
	}
	var out []*HeaderCheck
	for _, e := range es {
		hp := yamlpos.Child(ptr, e.Key)
		if !l.headerName(e.KeyNode, hp, e.Key) {
			continue
		}
		h := &HeaderCheck{Name: e.Key, Pos: l.pos(e.KeyNode, hp)}
		if yamlpos.Deref(e.Value).Kind != yaml.MappingNode {
			if s, ok := l.Str(e.Value, hp, "the expected header value"); ok {
				h.Equals = &s
			}
			out = append(out, h)
			continue
		}
		f, ok := l.Object(e.Value, hp, headerCheckKeys)
		if !ok {
			continue
		}
		switch pred := l.Exclusive(f, headerCheckKeys, true, "regex", "schema", "exists", "contains"); pred {
		case "regex":
			pn, pp := f.Get(pred)
			h.Regex, _ = l.regex(pn, pp)
		case "schema":
			pn, pp := f.Get(pred)
			h.Schema = l.jsonSchemaArg(pn, pp)
		case "exists":
			pn, pp := f.Get(pred)
			if v, ok := l.Boolean(pn, pp, "exists"); ok {
				h.Exists = &v
			}
		case "contains":
			pn, pp := f.Get(pred)
			h.Contains, _ = l.Str(pn, pp, "contains")
		}
		out = append(out, h)
	}
	return out
}
