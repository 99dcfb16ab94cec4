package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/vars"
	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

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
	x, err := vars.Expand(n.Value, sc.get, bare)
	if err != nil {
		l.C.Add(n, ptr, "invalid variable reference: "+err.Error(), "")
		return
	}
	for _, m := range x.Missing {
		hint := "set it in the environment or in a .env file"
		if m.Message != "" {
			hint = m.Message
		}
		l.C.Add(n, ptr, fmt.Sprintf("variable %s is required here (${%s:?}) but has no value", m.Name, m.Name), hint)
	}
	for _, name := range x.Unresolved {
		sc.unresolved = append(sc.unresolved, unresolvedRef{name: name, err: &Error{
			File: l.C.File, Line: n.Line, Col: n.Column, Pointer: ptr,
			Msg:  fmt.Sprintf("unresolved variable %s", name),
			Hint: fmt.Sprintf("%s=1 makes unresolved variables errors; set %s or write ${%s:-default}", StrictVarsEnv, name, name),
		}})
	}
	if x.Fixture {
		l.fixtureUse(n, ptr)
	}
	n.Value = x.Out
}
