package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// fixturesKeys are the keys of the fixtures block.
var fixturesKeys = yamlpos.NewObjectSpec("the fixtures block", yamlpos.Key("server"), yamlpos.Key("errors"))

// fixtureErrorKeys are the keys of one named error scenario.
var fixtureErrorKeys = yamlpos.NewObjectSpec("a fixture",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("code"),
	yamlpos.RequiredKey("message"),
	yamlpos.Key("tool"),
	yamlpos.Key("applies_to"),
)

// fixtures reads the fixtures block.
func (l *loader) fixtures(e yamlpos.Entry, ptr string) *Fixtures {
	f, ok := l.Object(e.Value, ptr, fixturesKeys)
	if !ok {
		return nil
	}
	fx := &Fixtures{Pos: l.pos(e.KeyNode, ptr)}
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		switch fe.Key {
		case "server":
			fx.Server = l.ref(fe.Value, fp, "a server name", serverRef, l.refs.servers)
		case "errors":
			fx.Errors = l.fixtureErrors(fe.Value, fp)
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
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, fixtureErrorKeys)
		if !ok {
			continue
		}
		fe := &FixtureError{Pos: l.pos(item, ip)}
		l.Exclusive(f, fixtureErrorKeys, true, "tool", "applies_to")
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				fe.Name, _ = l.NonEmptyStr(e.Value, ep, "the fixture name")
				if line, dup := seen[fe.Name]; dup && fe.Name != "" {
					l.C.Add(e.Value, ep, fmt.Sprintf("duplicate fixture name %q", fe.Name),
						fmt.Sprintf("first declared at line %d; inject_error must name exactly one fixture", line))
				}
				seen[fe.Name] = e.Value.Line
			case "code":
				fe.Code, _ = l.AnyInt(e.Value, ep, "code (a JSON-RPC error code)")
			case "message":
				fe.Message, _ = l.Str(e.Value, ep, "the error message")
			case "tool":
				fe.Tool, _ = l.NonEmptyStr(e.Value, ep, "the tool name")
			case "applies_to":
				fe.AppliesTo, _ = l.Enum(e.Value, ep, "applies_to", "any")
			}
		}
		out = append(out, fe)
	}
	return out
}
