package config

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// The interpolation syntax, in every string value of a suite except the
// variables and imports blocks (and never in keys):
//
//	${NAME}            the value of NAME; "" and a warning when NAME has none
//	${NAME:-default}   the value of NAME, or default when it has none or is empty
//	${NAME:?message}   the value of NAME; an error naming the field when it has none
//	$NAME              short form of ${NAME}; the name ends at the first
//	                   character that cannot be part of it
//	$$                 a literal $
//	${capture:NAME}    kept as written, for the runner (a value captured at run time)
//	${fixture}         kept as written, for the runner (the path of a server's
//	                   fixture copy; $fixture is the same)
//	${id.field}        kept as written, for the runner (a composition node's
//	                   output, a data row)
//
// A $ followed by anything else is a literal $, so regular expressions
// such as "^ok$" need no escaping.

// expansion is the result of interpolating one string.
type expansion struct {
	out string
	// unresolved lists the names referenced with ${NAME} or $NAME that have
	// no value.
	unresolved []string
	// missing lists the ${NAME:?} references with no value, with their
	// messages.
	missing []missingVar
	// fixture is set when the string refers to ${fixture}, kept as
	// written for the runner (validate_fixture.go checks where).
	fixture bool
}

// missingVar is a ${NAME:?message} reference whose name has no value.
type missingVar struct {
	name, message string
}

// errUnterminated and friends describe malformed references.
var (
	errUnterminated = errors.New(`"${" has no closing "}" (write $$ for a literal $)`)
	errEmptyRef     = errors.New(`"${}" names no variable`)
)

// expand interpolates s. get returns the value of a name and whether it
// has one.
//
// With bare false, the short form $NAME is left as written: matcher
// arguments are JSON Schema, CEL and regular expressions, where "$ref",
// "$defs" or "$1" mean themselves; the braced forms still expand there.
func expand(s string, get func(string) (string, bool), bare bool) (expansion, error) {
	var x expansion
	if strings.IndexByte(s, '$') < 0 {
		x.out = s
		return x, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '$' || i+1 == len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		next := s[i+1]
		switch {
		case next == '$':
			b.WriteByte('$')
			i += 2
		case next == '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return x, errUnterminated
			}
			body := s[i+2 : i+2+end]
			whole := s[i : i+3+end]
			i += 3 + end
			if err := x.braced(&b, body, whole, get); err != nil {
				return x, err
			}
		case isNameStart(next) && !bare:
			b.WriteByte('$')
			i++
		case isNameStart(next):
			j := i + 2
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			name := s[i+1 : j]
			i = j
			if name == FixtureVar {
				b.WriteString("${" + FixtureVar + "}")
				x.fixture = true
				continue
			}
			if v, ok := get(name); ok {
				b.WriteString(v)
			} else {
				x.unresolved = append(x.unresolved, name)
			}
		default:
			b.WriteByte('$')
			i++
		}
	}
	x.out = b.String()
	return x, nil
}

// braced expands the body of one ${...} reference; whole is the reference
// as written, kept for the forms the runner resolves.
func (x *expansion) braced(b *strings.Builder, body, whole string, get func(string) (string, bool)) error {
	if body == "" {
		return errEmptyRef
	}
	name, op, arg := body, "", ""
	if body == FixtureVar {
		b.WriteString(whole)
		x.fixture = true
		return nil
	}
	if i := strings.Index(body, ":"); i >= 0 {
		name, op = body[:i], body[i+1:]
		if name == "capture" {
			if op == "" {
				return errors.New(`"${capture:}" names no capture`)
			}
			b.WriteString(whole)
			return nil
		}
		if name == FixtureVar {
			return fmt.Errorf("%q: ${%s} is the path of a server's fixture copy; it takes no default or message", "${"+body+"}", FixtureVar)
		}
		switch {
		case strings.HasPrefix(op, "-"):
			op, arg = "-", op[1:]
		case strings.HasPrefix(op, "?"):
			op, arg = "?", op[1:]
		default:
			return fmt.Errorf("%q: after %q, write :-default or :?message", "${"+body+"}", name)
		}
	}
	if strings.Contains(name, ".") && op == "" {
		// A node output or data row reference, resolved at run time.
		b.WriteString(whole)
		return nil
	}
	if !identifier.MatchString(name) {
		return fmt.Errorf("invalid variable name %q in %q", name, "${"+body+"}")
	}
	v, ok := get(name)
	switch op {
	case "":
		if !ok {
			x.unresolved = append(x.unresolved, name)
		}
		b.WriteString(v)
	case "-":
		if !ok || v == "" {
			v = arg
		}
		b.WriteString(v)
	case "?":
		if !ok || v == "" {
			x.missing = append(x.missing, missingVar{name: name, message: arg})
		}
		b.WriteString(v)
	}
	return nil
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

// interpolate expands the string values of the file, in place, except in
// the variables and imports blocks. Unresolved names are recorded in sc,
// for one warning (or errors, in strict mode) once every file is done.
func (l *loader) interpolate(root *yaml.Node, sc *scope) {
	w := &interpolation{l: l, sc: sc}
	m := yamlpos.Deref(root)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := yamlpos.Deref(m.Content[i])
		if k.Kind == yaml.ScalarNode && (k.Value == "variables" || k.Value == "imports") {
			continue
		}
		w.walk(m.Content[i], m.Content[i+1])
	}
}

// interpolation walks a tree of nodes. The JSON pointer of the current
// node is kept as a stack of steps and only rendered for an error, since
// nearly every string has nothing to expand.
type interpolation struct {
	l     *loader
	sc    *scope
	steps []step
	// inMatcher counts the matcher objects around the current node, where
	// the short form $NAME is not expanded.
	inMatcher int
}

// step is one step of a JSON pointer: a key, or an array index.
type step struct {
	key string
	idx int // -1 for a key
}

// pointer renders the current JSON pointer.
func (w *interpolation) pointer() string {
	ptr := ""
	for _, s := range w.steps {
		if s.idx < 0 {
			ptr = yamlpos.Child(ptr, s.key)
		} else {
			ptr = yamlpos.Index(ptr, s.idx)
		}
	}
	return ptr
}

// walk expands the strings under n, reached through key k (nil for an
// array element). Aliases are skipped: their anchor is expanded where it
// is written, once. A merge key adds no step to the pointer.
func (w *interpolation) walk(k, n *yaml.Node) {
	depth := len(w.steps)
	if k != nil && !yamlpos.IsMergeKey(yamlpos.Deref(k)) {
		w.steps = append(w.steps, step{key: yamlpos.Deref(k).Value, idx: -1})
		if yamlpos.Deref(k).Value == "matcher" {
			w.inMatcher++
			defer func() { w.inMatcher-- }()
		}
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if strings.IndexByte(n.Value, '$') >= 0 && n.ShortTag() == yamlpos.TagStr {
			w.l.interpolateString(n, w.pointer(), w.sc, w.inMatcher == 0)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			w.walk(n.Content[i], n.Content[i+1])
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			w.steps = append(w.steps, step{idx: i})
			w.walk(nil, item)
			w.steps = w.steps[:len(w.steps)-1]
		}
	}
	w.steps = w.steps[:depth]
}

// interpolateString expands one string node.
func (l *loader) interpolateString(n *yaml.Node, ptr string, sc *scope, bare bool) {
	x, err := expand(n.Value, sc.get, bare)
	if err != nil {
		l.C.Add(n, ptr, "invalid variable reference: "+err.Error(), "")
		return
	}
	for _, m := range x.missing {
		hint := "set it in the environment or in a .env file"
		if m.message != "" {
			hint = m.message
		}
		l.C.Add(n, ptr, fmt.Sprintf("variable %s is required here (${%s:?}) but has no value", m.name, m.name), hint)
	}
	for _, name := range x.unresolved {
		sc.unresolved = append(sc.unresolved, unresolvedRef{name: name, err: &Error{
			File: l.C.File, Line: n.Line, Col: n.Column, Pointer: ptr,
			Msg:  fmt.Sprintf("unresolved variable %s", name),
			Hint: fmt.Sprintf("%s=1 makes unresolved variables errors; set %s or write ${%s:-default}", StrictVarsEnv, name, name),
		}})
	}
	if x.fixture {
		l.fixtureUse(n, ptr)
	}
	n.Value = x.out
}
