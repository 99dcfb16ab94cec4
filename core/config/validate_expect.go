package config

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// assertionKeys are the keys of one entry of an expect block.
var assertionKeys = newObjectSpec("an assertion",
	requiredKey("target"),
	requiredKey("matcher"),
	key("message"),
	key("transform"),
	key("weight"),
	key("name"),
	key("assert-set").asAlone(),
).withMisplaced(map[string]string{
	"max_duration_ms":         "step budgets go in the long form of expect: {assertions: [...], max_duration_ms: 500}",
	"max_response_tokens":     "step budgets go in the long form of expect: {assertions: [...], max_response_tokens: 100}",
	"response_headers":        "header checks go in the long form of expect: {assertions: [...], response_headers: {...}}",
	"response_headers_absent": "header checks go in the long form of expect: {assertions: [...], response_headers_absent: [...]}",
	"threshold":               "threshold is set on the test, or on an assert-set",
})

// assertSetKeys are the keys of an assert-set.
var assertSetKeys = newObjectSpec("an assert-set",
	requiredKey("assertions"),
	key("name"),
	key("threshold"),
	key("weight"),
)

// expectKeys are the keys of the long form of expect.
var expectKeys = newObjectSpec("the long form of expect",
	requiredKey("assertions"),
	key("max_duration_ms"),
	key("max_response_tokens"),
	key("response_headers"),
	key("response_headers_absent"),
)

// tokenBudgetKeys are the keys of the long form of max_response_tokens.
var tokenBudgetKeys = newObjectSpec("max_response_tokens",
	requiredKey("budget"),
	key("tokenizer"),
	key("mode"),
	key("image_cost"),
)

// headerCheckKeys are the predicates of one response_headers entry.
var headerCheckKeys = newObjectSpec("a header check",
	key("regex"),
	key("schema"),
	key("exists"),
	key("contains"),
)

// expect reads an expect block: an array of assertions, or the long form,
// an object with assertions: and step-level checks.
func (l *loader) expect(n *yaml.Node, ptr string) ([]*Assertion, *ExpectOptions) {
	d := deref(n)
	switch d.Kind {
	case yaml.SequenceNode:
		return l.assertions(d, ptr, true), nil
	case yaml.MappingNode:
		if !hasKey(d, "assertions") && (hasKey(d, "target") || hasKey(d, "matcher")) {
			l.c.add(n, ptr, "expected expect (an array of assertions), found an object",
				"start each assertion with \"- \"")
			return nil, nil
		}
		return l.expectLong(n, ptr)
	}
	l.c.add(n, ptr, "expected expect (an array of assertions), found "+describe(d), "")
	return nil, nil
}

// assertions reads an array of assertions; sets says whether assert-sets
// are allowed (they do not nest).
func (l *loader) assertions(d *yaml.Node, ptr string, sets bool) []*Assertion {
	out := make([]*Assertion, 0, len(d.Content))
	for i, item := range d.Content {
		if a := l.assertion(item, index(ptr, i), sets); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// expectLong reads the long form of expect.
func (l *loader) expectLong(n *yaml.Node, ptr string) ([]*Assertion, *ExpectOptions) {
	f, ok := l.object(n, ptr, expectKeys)
	if !ok {
		return nil, nil
	}
	o := &ExpectOptions{Pos: l.pos(n, ptr)}
	var list []*Assertion
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "assertions":
			if items, ok := l.seq(e.value, ep, "assertions"); ok {
				list = l.assertions(&yaml.Node{Kind: yaml.SequenceNode, Content: items}, ep, true)
			}
		case "max_duration_ms":
			o.MaxDurationMS, _ = l.positiveInt(e.value, ep, "max_duration_ms")
		case "max_response_tokens":
			o.MaxResponseTokens = l.tokenBudget(e.value, ep)
		case "response_headers":
			o.ResponseHeaders = l.headerChecks(e.value, ep)
		case "response_headers_absent":
			names, ok := l.stringList(e.value, ep, "response_headers_absent", true)
			if ok {
				for i, name := range names {
					if !l.headerName(deref(e.value).Content[i], index(ep, i), name) {
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
	f, ok := l.object(n, ptr, assertionKeys)
	if !ok {
		return nil
	}
	a := &Assertion{Weight: 1, Pos: l.pos(n, ptr)}
	if sn, sp := f.get("assert-set"); sn != nil {
		for _, e := range f.entries {
			if e.key != "assert-set" {
				l.c.add(e.keyNode, child(ptr, e.key), fmt.Sprintf("%q does not go beside assert-set", e.key),
					"put it on the set's assertions, or inside the assert-set")
			}
		}
		if !sets {
			l.c.add(f.keyNode("assert-set"), sp, "assert-sets do not nest", "list the inner assertions directly")
			return nil
		}
		a.Set = l.assertSet(f.keyNode("assert-set"), sn, sp)
		if a.Set == nil {
			return nil
		}
		a.Name, a.Weight = a.Set.Name, a.Set.Weight
		return a
	}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "target":
			a.Target, _ = l.str(e.value, ep, "target")
		case "matcher":
			a.Matcher = l.matcher(e.value, ep)
		case "message":
			a.Message, _ = l.str(e.value, ep, "message")
		case "name":
			a.Name, _ = l.nonEmptyStr(e.value, ep, "the assertion name")
		case "weight":
			a.Weight, _ = l.positiveNumber(e.value, ep, "weight")
		case "transform":
			a.Transform = l.commandLine(e.value, ep, "a transform command")
		}
	}
	return a
}

// assertSet reads the value of an assert-set key.
func (l *loader) assertSet(at, n *yaml.Node, ptr string) *AssertSet {
	f, ok := l.object(n, ptr, assertSetKeys)
	if !ok {
		return nil
	}
	s := &AssertSet{Threshold: 1, Weight: 1, Pos: l.pos(at, ptr)}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "name":
			s.Name, _ = l.nonEmptyStr(e.value, ep, "the set name")
		case "threshold":
			s.Threshold, _ = l.fraction(e.value, ep, "threshold")
		case "weight":
			s.Weight, _ = l.positiveNumber(e.value, ep, "weight")
		case "assertions":
			if items, ok := l.nonEmptySeq(e.value, ep, "assertions"); ok {
				s.Assertions = l.assertions(&yaml.Node{Kind: yaml.SequenceNode, Content: items}, ep, false)
			}
		}
	}
	return s
}

// tokenBudget reads max_response_tokens: an integer, or the long form.
func (l *loader) tokenBudget(n *yaml.Node, ptr string) *TokenBudget {
	if deref(n).Kind != yaml.MappingNode {
		v, ok := l.positiveInt(n, ptr, "max_response_tokens")
		if !ok {
			return nil
		}
		return &TokenBudget{Budget: v}
	}
	f, ok := l.object(n, ptr, tokenBudgetKeys)
	if !ok {
		return nil
	}
	t := &TokenBudget{}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "budget":
			t.Budget, _ = l.positiveInt(e.value, ep, "budget")
		case "tokenizer":
			t.Tokenizer, _ = l.nonEmptyStr(e.value, ep, "tokenizer")
		case "mode":
			t.Mode, _ = l.nonEmptyStr(e.value, ep, "mode")
		case "image_cost":
			if v, ok := l.intRange(e.value, ep, "image_cost", 0, 1<<30); ok {
				t.ImageCost = &v
			}
		}
	}
	return t
}

// headerChecks reads response_headers: header names to a string (the
// exact value) or an object with one predicate.
func (l *loader) headerChecks(n *yaml.Node, ptr string) []*HeaderCheck {
	es, ok := l.mapping(n, ptr, "response_headers (an object of header names)")
	if !ok {
		return nil
	}
	var out []*HeaderCheck
	for _, e := range es {
		hp := child(ptr, e.key)
		if !l.headerName(e.keyNode, hp, e.key) {
			continue
		}
		h := &HeaderCheck{Name: e.key, Pos: l.pos(e.keyNode, hp)}
		if deref(e.value).Kind != yaml.MappingNode {
			if s, ok := l.str(e.value, hp, "the expected header value"); ok {
				h.Equals = &s
			}
			out = append(out, h)
			continue
		}
		f, ok := l.object(e.value, hp, headerCheckKeys)
		if !ok {
			continue
		}
		switch pred := l.exclusive(f, headerCheckKeys, true, "regex", "schema", "exists", "contains"); pred {
		case "regex":
			pn, pp := f.get(pred)
			h.Regex, _ = l.regex(pn, pp)
		case "schema":
			pn, pp := f.get(pred)
			h.Schema = l.jsonSchemaArg(pn, pp)
		case "exists":
			pn, pp := f.get(pred)
			if v, ok := l.boolean(pn, pp, "exists"); ok {
				h.Exists = &v
			}
		case "contains":
			pn, pp := f.get(pred)
			h.Contains, _ = l.str(pn, pp, "contains")
		}
		out = append(out, h)
	}
	return out
}
