package config

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// assertionKeys are the keys of one entry of an expect block.
var assertionKeys = newObjectSpec("an assertion",
	requiredKey("target"),
	requiredKey("matcher"),
	key("message"),
	laterKey("transform"),
	laterKey("weight"),
	laterKey("assert-set").asAlone(),
)

// expect reads an expect block: an array of assertions.
func (l *loader) expect(n *yaml.Node, ptr string) []*Assertion {
	d := deref(n)
	switch d.Kind {
	case yaml.SequenceNode:
	case yaml.MappingNode:
		if hasKey(d, "assertions") {
			l.c.add(n, ptr, "the long form of expect (an object with assertions:) is not supported yet by this build",
				"write expect as an array of assertions")
		} else {
			l.c.add(n, ptr, "expected expect (an array of assertions), found an object",
				"start each assertion with \"- \"")
		}
		return nil
	default:
		l.c.add(n, ptr, "expected expect (an array of assertions), found "+describe(d), "")
		return nil
	}
	out := make([]*Assertion, 0, len(d.Content))
	for i, item := range d.Content {
		if a := l.assertion(item, ptr+"/"+strconv.Itoa(i)); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// hasKey reports whether mapping m has a string key k, without checking
// anything else.
func hasKey(m *yaml.Node, k string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kd := deref(m.Content[i]); kd.Kind == yaml.ScalarNode && kd.Value == k {
			return true
		}
	}
	return false
}

// assertion reads one assertion.
func (l *loader) assertion(n *yaml.Node, ptr string) *Assertion {
	f, ok := l.object(n, ptr, assertionKeys)
	if !ok {
		return nil
	}
	a := &Assertion{Pos: l.pos(n, ptr)}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "target":
			a.Target, _ = l.str(e.value, ep, "target")
		case "matcher":
			a.Matcher = l.matcher(e.value, ep)
		case "message":
			a.Message, _ = l.str(e.value, ep, "message")
		}
	}
	return a
}

// matcher reads a matcher: an object with exactly one key, whatever the
// key (matcher keys are resolved later, against the installed plugins).
func (l *loader) matcher(n *yaml.Node, ptr string) Matcher {
	const example = `for example: matcher: {contains: "hello"}`
	d := deref(n)
	if d.Kind != yaml.MappingNode {
		l.c.add(n, ptr, "expected a matcher (an object with exactly one key), found "+describe(d), example)
		return Matcher{}
	}
	if len(d.Content) == 0 {
		l.c.add(n, ptr, "a matcher needs exactly one key, found none", example)
		return Matcher{}
	}
	es := l.entries(d, ptr)
	switch {
	case len(es) == 0: // its only keys were invalid; already reported
		return Matcher{}
	case len(es) > 1:
		names := make([]string, len(es))
		for i, e := range es {
			names[i] = strconv.Quote(e.key)
		}
		list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
		l.c.add(n, ptr, fmt.Sprintf("a matcher has exactly one key, found %d: %s", len(es), list),
			"write one assertion per matcher, or combine them with allOf")
		return Matcher{}
	}
	e := es[0]
	if e.key == "" {
		l.c.add(e.keyNode, ptr, "a matcher key must not be empty", example)
		return Matcher{}
	}
	return Matcher{Key: e.key, Arg: l.toJSON(e.value, child(ptr, e.key)), Pos: l.pos(e.keyNode, ptr)}
}
