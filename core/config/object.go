package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/internal/suggest"
)

// keySpec describes one key of a YAML object of the v1 format.
type keySpec struct {
	name     string
	required bool
	// alone marks a key that gives the object another shape (an
	// assert-set): when it is written, required keys are not checked,
	// since they belong to the other shape.
	alone bool
	// hint is added to the "missing required key" error.
	hint string
}

// objectSpec lists the keys of one kind of YAML object (the suite, a
// server, a tool test...). Adding a field to the format means adding a key
// here, reading it in the matching validate_*.go file and describing it in
// schemas/v1.json; a test keeps the three in step.
type objectSpec struct {
	what   string // the object, for messages: "a server", "a tool test"
	keys   []keySpec
	byName map[string]keySpec
	names  []string // every key, for did-you-mean and hints
	// misplaced maps keys that belong elsewhere to a hint saying where.
	misplaced map[string]string
}

func newObjectSpec(what string, keys ...keySpec) *objectSpec {
	s := &objectSpec{what: what, keys: keys, byName: make(map[string]keySpec, len(keys))}
	for _, k := range keys {
		s.byName[k.name] = k
		s.names = append(s.names, k.name)
	}
	return s
}

// withMisplaced adds hints for keys that are not valid here but are valid
// somewhere else, so the error can say where.
func (s *objectSpec) withMisplaced(hints map[string]string) *objectSpec {
	s.misplaced = hints
	return s
}

func key(name string) keySpec         { return keySpec{name: name} }
func requiredKey(name string) keySpec { return keySpec{name: name, required: true} }

// withHint sets the hint of a missing required key.
func (k keySpec) withHint(h string) keySpec { k.hint = h; return k }

// asAlone marks a key that gives the object another shape.
func (k keySpec) asAlone() keySpec { k.alone = true; return k }

// fields bundles the entries of one object, by key.
type fields struct {
	ptr     string
	node    *yaml.Node // the object as written
	entries []entry
	unknown int // keys reported as unknown
}

// get returns the value of key and its pointer, or nil when absent.
func (f *fields) get(key string) (*yaml.Node, string) {
	for _, e := range f.entries {
		if e.key == key {
			return e.value, child(f.ptr, key)
		}
	}
	return nil, ""
}

// has reports whether key is written.
func (f *fields) has(key string) bool {
	v, _ := f.get(key)
	return v != nil
}

// keyNode returns the key node of key, or the object itself when absent.
func (f *fields) keyNode(key string) *yaml.Node {
	for _, e := range f.entries {
		if e.key == key {
			return e.keyNode
		}
	}
	return f.node
}

// object checks that n is a mapping whose keys all belong to spec, reports
// unknown keys (with a did-you-mean) and missing required keys, and returns
// the known entries. ok is false when n is not a mapping at all.
func (l *loader) object(n *yaml.Node, ptr string, spec *objectSpec) (f *fields, ok bool) {
	m := deref(n)
	if m.Kind != yaml.MappingNode {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (an object), found %s", spec.what, describe(m)), "")
		return nil, false
	}
	f = &fields{ptr: ptr, node: n}
	otherShape := false
	for _, e := range l.entries(m, ptr) {
		k, known := spec.byName[e.key]
		if !known {
			l.unknownKey(e, ptr, spec)
			f.unknown++
			continue
		}
		otherShape = otherShape || k.alone
		f.entries = append(f.entries, e)
	}
	if otherShape {
		return f, true
	}
	for _, k := range spec.keys {
		if k.required && !f.has(k.name) {
			l.c.add(n, ptr, fmt.Sprintf("missing required key %q in %s", k.name, spec.what), k.hint)
		}
	}
	return f, true
}

// unknownKey reports a key that the v1 format does not define here.
func (l *loader) unknownKey(e entry, ptr string, spec *objectSpec) {
	hint := spec.misplaced[e.key]
	if hint == "" {
		if s := suggest.Closest(e.key, spec.names); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		} else {
			hint = "valid keys here: " + strings.Join(spec.names, ", ")
		}
	}
	l.c.add(e.keyNode, child(ptr, e.key), fmt.Sprintf("unknown key %q in %s", e.key, spec.what), hint)
}

// exclusive reports when more than one of keys is written in f (they give
// the object incompatible shapes) and, when need is set, when none is. It
// returns the key written, or "" when none or several are.
func (l *loader) exclusive(f *fields, spec *objectSpec, need bool, keys ...string) string {
	var written []string
	for _, k := range keys {
		if f.has(k) {
			written = append(written, k)
		}
	}
	switch {
	case len(written) == 1:
		return written[0]
	case len(written) > 1:
		l.c.add(f.keyNode(written[1]), child(f.ptr, written[1]),
			fmt.Sprintf("%s takes only one of %s, found %s", spec.what, orList(keys), andList(written)), "")
	case need && f.unknown == 0: // else the unknown key is the likely culprit
		l.c.add(f.node, f.ptr, fmt.Sprintf("%s needs one of %s", spec.what, orList(keys)), "")
	}
	return ""
}

// orList renders keys as `"a", "b" or "c"`.
func orList(keys []string) string { return joinQuoted(keys, " or ") }

// andList renders keys as `"a", "b" and "c"`.
func andList(keys []string) string { return joinQuoted(keys, " and ") }

func joinQuoted(keys []string, last string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + last + q[len(q)-1]
}
