package config

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// keyStatus says how this build treats a key of the v1 format.
type keyStatus uint8

const (
	// supported keys are read into the Suite.
	supported keyStatus = iota
	// later keys belong to the v1 format but are not implemented by this
	// build yet; using one is an error that says so, never "unknown key".
	later
)

// keySpec describes one key of a YAML object of the v1 format.
type keySpec struct {
	name     string
	status   keyStatus
	required bool
	// alone marks a key that gives the object another shape (a url:
	// server, an assert-set): when it is written, required keys are not
	// checked, since they belong to the other shape.
	alone bool
	// hint is added to the "missing required key" error.
	hint string
}

// objectSpec lists the keys of one kind of YAML object (the suite, a
// server, a tool test...). Adding a field to the format means adding (or
// promoting) a key here and reading it in the matching validate_*.go file.
type objectSpec struct {
	what      string // the object, for messages: "a server", "a tool test"
	keys      []keySpec
	byName    map[string]keySpec
	names     []string // every key, for did-you-mean
	supported []string // supported keys, for hints
}

func newObjectSpec(what string, keys ...keySpec) *objectSpec {
	s := &objectSpec{what: what, keys: keys, byName: make(map[string]keySpec, len(keys))}
	for _, k := range keys {
		s.byName[k.name] = k
		s.names = append(s.names, k.name)
		if k.status == supported {
			s.supported = append(s.supported, k.name)
		}
	}
	return s
}

func key(name string) keySpec         { return keySpec{name: name} }
func requiredKey(name string) keySpec { return keySpec{name: name, required: true} }
func laterKey(name string) keySpec    { return keySpec{name: name, status: later} }

// withHint sets the hint of a missing required key.
func (k keySpec) withHint(h string) keySpec { k.hint = h; return k }

// asAlone marks a key that gives the object another shape.
func (k keySpec) asAlone() keySpec { k.alone = true; return k }

// fields bundles the supported entries of one object, by key.
type fields struct {
	ptr     string
	entries []entry
	later   []string // keys written that this build does not support yet
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

// has reports whether key is written, supported or not.
func (f *fields) has(key string) bool {
	for _, e := range f.entries {
		if e.key == key {
			return true
		}
	}
	return slices.Contains(f.later, key)
}

// object checks that n is a mapping whose keys all belong to spec, reports
// unknown keys (with a did-you-mean), keys not supported yet and missing
// required keys, and returns the supported entries. ok is false when n is
// not a mapping at all.
func (l *loader) object(n *yaml.Node, ptr string, spec *objectSpec) (f *fields, ok bool) {
	m := deref(n)
	if m.Kind != yaml.MappingNode {
		l.c.add(n, ptr, fmt.Sprintf("expected %s (an object), found %s", spec.what, describe(m)), "")
		return nil, false
	}
	f = &fields{ptr: ptr}
	otherShape := false
	for _, e := range l.entries(m, ptr) {
		k, known := spec.byName[e.key]
		switch {
		case !known:
			l.unknownKey(e, ptr, spec)
		case k.status == later:
			f.later = append(f.later, e.key)
			otherShape = otherShape || k.alone
			l.c.add(e.keyNode, child(ptr, e.key),
				fmt.Sprintf("%q is not supported yet by this build", e.key),
				"supported here: "+strings.Join(spec.supported, ", "))
		default:
			f.entries = append(f.entries, e)
		}
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
	hint := ""
	if s := suggest(e.key, spec.names); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	} else {
		hint = "valid keys here: " + strings.Join(spec.supported, ", ")
	}
	l.c.add(e.keyNode, child(ptr, e.key), fmt.Sprintf("unknown key %q in %s", e.key, spec.what), hint)
}
