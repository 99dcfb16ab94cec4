package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/vars"
	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// variableKeys are the keys of one variable.
var variableKeys = yamlpos.NewObjectSpec("a variable",
	yamlpos.Key("value"),
	yamlpos.Key("from_env"),
	yamlpos.Key("default"),
)

// identifier is the syntax of variable names, the names ${NAME} and $NAME
// can refer to.
var identifier = vars.Identifier

// variables reads the variables block of a file. Strings here are not
// interpolated: a value is literal, and a default is a string, not another
// reference.
func (l *loader) variables(root *yaml.Node) []*Variable {
	n, ptr := topValue(root, "variables")
	if n == nil {
		return nil
	}
	es, ok := l.Mapping(n, ptr, "the variables block")
	if !ok {
		return nil
	}
	out := make([]*Variable, 0, len(es))
	for _, e := range es {
		vp := yamlpos.Child(ptr, e.Key)
		if !identifier().MatchString(e.Key) {
			l.C.Add(e.KeyNode, vp, fmt.Sprintf("invalid variable name %q", e.Key),
				"use letters, digits and _, not starting with a digit")
			continue
		}
		if e.Key == FixtureVar {
			l.C.Add(e.KeyNode, vp, fmt.Sprintf("the variable name %q is reserved", e.Key),
				"${fixture} is the path of a server's fixture copy (servers.<name>.fixture); pick another name")
			continue
		}
		if v := l.variable(e, vp); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// variable reads one variable: {value: ...} or {from_env: NAME, default: ...}.
func (l *loader) variable(e yamlpos.Entry, ptr string) *Variable {
	if d := yamlpos.Deref(e.Value); d.Kind == yaml.ScalarNode {
		l.C.Add(e.Value, ptr, "expected a variable (an object with value: or from_env:), found "+yamlpos.Describe(d),
			fmt.Sprintf("write %s: {value: %s}", e.Key, d.Value))
		return nil
	}
	f, ok := l.Object(e.Value, ptr, variableKeys)
	if !ok {
		return nil
	}
	v := &Variable{Name: e.Key, Pos: l.pos(e.KeyNode, ptr)}
	good := true
	switch l.Exclusive(f, variableKeys, true, "value", "from_env") {
	case "value":
		vn, vp := f.Get("value")
		s, ok := l.scalarString(vn, vp, "the value of a variable")
		v.Value, good = &s, ok
		if f.Has("default") {
			dn := f.KeyNode("default")
			l.C.Add(dn, yamlpos.Child(ptr, "default"), "default only applies to a from_env variable", "remove it, or read the value with from_env:")
			good = false
		}
	case "from_env":
		fn, fp := f.Get("from_env")
		name, ok := l.NonEmptyStr(fn, fp, "from_env (an environment variable name)")
		v.FromEnv, good = name, ok
		if dn, dp := f.Get("default"); dn != nil {
			s, ok := l.Str(dn, dp, "the default of a variable")
			v.Default, good = &s, good && ok
		}
	default:
		good = false
	}
	if !good {
		return nil
	}
	return v
}

// scalarString reads a string, number or boolean in its string form, as
// written (a variable's value is text once interpolated).
func (l *loader) scalarString(n *yaml.Node, ptr, what string) (string, bool) {
	d := yamlpos.Deref(n)
	if s, ok := yamlpos.StringOf(d); ok {
		return s, true
	}
	if d.Kind == yaml.ScalarNode {
		switch d.ShortTag() {
		case yamlpos.TagInt, yamlpos.TagFloat, yamlpos.TagBool:
			return d.Value, true
		}
	}
	l.C.Add(n, ptr, fmt.Sprintf("expected %s (a string, number or boolean), found %s", what, yamlpos.Describe(d)), "")
	return "", false
}
