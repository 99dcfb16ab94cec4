package config

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// fixturesKeys are the keys of the fixtures block.
var fixturesKeys = newObjectSpec("the fixtures block", key("server"), key("errors"))

// fixtureErrorKeys are the keys of one named error scenario.
var fixtureErrorKeys = newObjectSpec("a fixture",
	requiredKey("name"),
	requiredKey("code"),
	requiredKey("message"),
	key("tool"),
	key("applies_to"),
)

// fixtures reads the fixtures block.
func (l *loader) fixtures(e entry, ptr string) *Fixtures {
	f, ok := l.object(e.value, ptr, fixturesKeys)
	if !ok {
		return nil
	}
	fx := &Fixtures{Pos: l.pos(e.keyNode, ptr)}
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		switch fe.key {
		case "server":
			fx.Server = l.ref(fe.value, fp, "a server name", serverRef, l.refs.servers)
		case "errors":
			fx.Errors = l.fixtureErrors(fe.value, fp)
		}
	}
	return fx
}

// fixtureErrors reads fixtures.errors: uniquely named errors, each scoped
// to one tool or to any.
func (l *loader) fixtureErrors(n *yaml.Node, ptr string) []*FixtureError {
	items, ok := l.seq(n, ptr, "fixtures.errors (an array of named errors)")
	if !ok {
		return nil
	}
	seen := map[string]int{}
	var out []*FixtureError
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, fixtureErrorKeys)
		if !ok {
			continue
		}
		fe := &FixtureError{Pos: l.pos(item, ip)}
		l.exclusive(f, fixtureErrorKeys, true, "tool", "applies_to")
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				fe.Name, _ = l.nonEmptyStr(e.value, ep, "the fixture name")
				if line, dup := seen[fe.Name]; dup && fe.Name != "" {
					l.c.add(e.value, ep, fmt.Sprintf("duplicate fixture name %q", fe.Name),
						fmt.Sprintf("first declared at line %d; inject_error must name exactly one fixture", line))
				}
				seen[fe.Name] = e.value.Line
			case "code":
				fe.Code, _ = l.anyInt(e.value, ep, "code (a JSON-RPC error code)")
			case "message":
				fe.Message, _ = l.str(e.value, ep, "the error message")
			case "tool":
				fe.Tool, _ = l.nonEmptyStr(e.value, ep, "the tool name")
			case "applies_to":
				fe.AppliesTo, _ = l.enum(e.value, ep, "applies_to", "any")
			}
		}
		out = append(out, fe)
	}
	return out
}
