package config

import (
	"fmt"
	"regexp"

	"gopkg.in/yaml.v3"
)

// variableKeys are the keys of one variable.
var variableKeys = newObjectSpec("a variable",
	key("value"),
	key("from_env"),
	key("default"),
)

// identifier is the syntax of variable names, the names ${NAME} and $NAME
// can refer to.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// variables reads the variables block of a file. Strings here are not
// interpolated: a value is literal, and a default is a string, not another
// reference.
func (l *loader) variables(root *yaml.Node) []*Variable {
	n, ptr := topValue(root, "variables")
	if n == nil {
		return nil
	}
	es, ok := l.mapping(n, ptr, "the variables block")
	if !ok {
		return nil
	}
	out := make([]*Variable, 0, len(es))
	for _, e := range es {
		vp := child(ptr, e.key)
		if !identifier.MatchString(e.key) {
			l.c.add(e.keyNode, vp, fmt.Sprintf("invalid variable name %q", e.key),
				"use letters, digits and _, not starting with a digit")
			continue
		}
		if e.key == FixtureVar {
			l.c.add(e.keyNode, vp, fmt.Sprintf("the variable name %q is reserved", e.key),
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
func (l *loader) variable(e entry, ptr string) *Variable {
	if d := deref(e.value); d.Kind == yaml.ScalarNode {
		l.c.add(e.value, ptr, "expected a variable (an object with value: or from_env:), found "+describe(d),
			fmt.Sprintf("write %s: {value: %s}", e.key, d.Value))
		return nil
	}
	f, ok := l.object(e.value, ptr, variableKeys)
	if !ok {
		return nil
	}
	v := &Variable{Name: e.key, Pos: l.pos(e.keyNode, ptr)}
	good := true
	switch l.exclusive(f, variableKeys, true, "value", "from_env") {
	case "value":
		vn, vp := f.get("value")
		s, ok := l.scalarString(vn, vp, "the value of a variable")
		v.Value, good = &s, ok
		if f.has("default") {
			dn := f.keyNode("default")
			l.c.add(dn, child(ptr, "default"), "default only applies to a from_env variable", "remove it, or read the value with from_env:")
			good = false
		}
	case "from_env":
		fn, fp := f.get("from_env")
		name, ok := l.nonEmptyStr(fn, fp, "from_env (an environment variable name)")
		v.FromEnv, good = name, ok
		if dn, dp := f.get("default"); dn != nil {
			s, ok := l.str(dn, dp, "the default of a variable")
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
	d := deref(n)
	if s, ok := stringOf(d); ok {
		return s, true
	}
	if d.Kind == yaml.ScalarNode {
		switch d.ShortTag() {
		case tagInt, tagFloat, tagBool:
			return d.Value, true
		}
	}
	l.c.add(n, ptr, fmt.Sprintf("expected %s (a string, number or boolean), found %s", what, describe(d)), "")
	return "", false
}
