package yamlpos

import (
	"fmt"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/internal/suggest"
)

// KeySpec describes one key of a YAML object of the v1 format.
type KeySpec struct {
	// Name is the key as written.
	Name string
	// Required makes a missing key an error.
	Required bool
	// Alone marks a key that gives the object another shape (an
	// assert-set): when it is written, required keys are not checked,
	// since they belong to the other shape.
	Alone bool
	// hint is added to the "missing required key" error.
	hint string
}

// ObjectSpec lists the keys of one kind of YAML object (the suite, a
// server, a tool test...). core/config declares one per object of the v1
// format beside the validate_*.go file that reads it; a test there keeps
// the tables and schemas/v1.json in step.
type ObjectSpec struct {
	what string // the object, for messages: "a server", "a tool test"
	// Keys are the keys of the object, in the order of the format.
	Keys []KeySpec
	// byName indexes Keys by name. It is built on the first lookup, not in
	// NewObjectSpec: core/config declares ~80 specs as package variables,
	// and building every index at start-up cost each mcptest process.
	byNameOnce sync.Once
	byName     map[string]KeySpec
	// names are the names of Keys, for did-you-mean and hints; made on
	// first use, like byName (Names).
	namesOnce sync.Once
	names     []string
	// misplaced maps keys that belong elsewhere to a hint saying where.
	misplaced map[string]string
}

// NewObjectSpec returns the table of keys of one kind of object; what
// names the object in messages ("a server").
func NewObjectSpec(what string, keys ...KeySpec) *ObjectSpec {
	return &ObjectSpec{what: what, Keys: keys}
}

// Names returns the names of the object's keys, in the format's order.
func (s *ObjectSpec) Names() []string {
	s.namesOnce.Do(func() {
		s.names = make([]string, len(s.Keys))
		for i, k := range s.Keys {
			s.names[i] = k.Name
		}
	})
	return s.names
}

// key returns the spec of the key called name, if the object has one.
func (s *ObjectSpec) key(name string) (KeySpec, bool) {
	s.byNameOnce.Do(func() {
		m := make(map[string]KeySpec, len(s.Keys))
		for _, k := range s.Keys {
			m[k.Name] = k
		}
		s.byName = m
	})
	k, ok := s.byName[name]
	return k, ok
}

// WithMisplaced adds hints for keys that are not valid here but are valid
// somewhere else, so the error can say where.
func (s *ObjectSpec) WithMisplaced(hints map[string]string) *ObjectSpec {
	s.misplaced = hints
	return s
}

// Key is an optional key.
func Key(name string) KeySpec { return KeySpec{Name: name} }

// RequiredKey is a key the object must have.
func RequiredKey(name string) KeySpec { return KeySpec{Name: name, Required: true} }

// WithHint sets the hint of a missing required key.
func (k KeySpec) WithHint(h string) KeySpec { k.hint = h; return k }

// AsAlone marks a key that gives the object another shape.
func (k KeySpec) AsAlone() KeySpec { k.Alone = true; return k }

// Fields bundles the entries of one object, by key.
type Fields struct {
	Ptr     string     // the JSON pointer of the object
	Node    *yaml.Node // the object as written
	Entries []Entry
	Unknown int // keys reported as unknown
}

// Get returns the value of key and its pointer, or nil when absent.
func (f *Fields) Get(key string) (*yaml.Node, string) {
	for _, e := range f.Entries {
		if e.Key == key {
			return e.Value, Child(f.Ptr, key)
		}
	}
	return nil, ""
}

// Has reports whether key is written.
func (f *Fields) Has(key string) bool {
	// Not through Get: it would build the key's pointer for nothing.
	for _, e := range f.Entries {
		if e.Key == key {
			return e.Value != nil
		}
	}
	return false
}

// KeyNode returns the key node of key, or the object itself when absent.
func (f *Fields) KeyNode(key string) *yaml.Node {
	for _, e := range f.Entries {
		if e.Key == key {
			return e.KeyNode
		}
	}
	return f.Node
}

// Object checks that n is a mapping whose keys all belong to spec, reports
// unknown keys (with a did-you-mean) and missing required keys, and returns
// the known entries. ok is false when n is not a mapping at all.
func (l *Reader) Object(n *yaml.Node, ptr string, spec *ObjectSpec) (f *Fields, ok bool) {
	m := Deref(n)
	if m.Kind != yaml.MappingNode {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (an object), found %s", spec.what, Describe(m)), "")
		return nil, false
	}
	f = &Fields{Ptr: ptr, Node: n}
	otherShape := false
	// The known entries are kept in place in the fresh slice Entries
	// returns: one allocation per object instead of a growing copy.
	all := l.Entries(m, ptr)
	f.Entries = all[:0]
	for _, e := range all {
		k, known := spec.key(e.Key)
		if !known {
			l.unknownKey(e, ptr, spec)
			f.Unknown++
			continue
		}
		otherShape = otherShape || k.Alone
		f.Entries = append(f.Entries, e)
	}
	if len(f.Entries) == 0 {
		f.Entries = nil // as before, when nothing was appended
	}
	if otherShape {
		return f, true
	}
	for _, k := range spec.Keys {
		if k.Required && !f.Has(k.Name) {
			l.C.Add(n, ptr, fmt.Sprintf("missing required key %q in %s", k.Name, spec.what), k.hint)
		}
	}
	return f, true
}

// unknownKey reports a key that the v1 format does not define here.
func (l *Reader) unknownKey(e Entry, ptr string, spec *ObjectSpec) {
	hint := spec.misplaced[e.Key]
	if hint == "" {
		if s := suggest.Closest(e.Key, spec.Names()); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		} else {
			hint = "valid keys here: " + strings.Join(spec.Names(), ", ")
		}
	}
	l.C.Add(e.KeyNode, Child(ptr, e.Key), fmt.Sprintf("unknown key %q in %s", e.Key, spec.what), hint)
}

// Exclusive reports when more than one of keys is written in f (they give
// the object incompatible shapes) and, when need is set, when none is. It
// returns the key written, or "" when none or several are.
func (l *Reader) Exclusive(f *Fields, spec *ObjectSpec, need bool, keys ...string) string {
	var written []string
	for _, k := range keys {
		if f.Has(k) {
			written = append(written, k)
		}
	}
	switch {
	case len(written) == 1:
		return written[0]
	case len(written) > 1:
		l.C.Add(f.KeyNode(written[1]), Child(f.Ptr, written[1]),
			fmt.Sprintf("%s takes only one of %s, found %s", spec.what, orList(keys), AndList(written)), "")
	case need && f.Unknown == 0: // else the unknown key is the likely culprit
		l.C.Add(f.Node, f.Ptr, fmt.Sprintf("%s needs one of %s", spec.what, orList(keys)), "")
	}
	return ""
}

// orList renders keys as `"a", "b" or "c"`.
func orList(keys []string) string { return joinQuoted(keys, " or ") }

// AndList renders keys as `"a", "b" and "c"`.
func AndList(keys []string) string { return joinQuoted(keys, " and ") }

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
