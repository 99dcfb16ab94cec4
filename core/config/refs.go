package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
	"github.com/mcptest/mcptest/internal/suggest"
)

// nameSet is the set of names declared for one kind of reference, in
// declaration order. A nil *nameSet accepts every name: the declarations
// were unusable, and checking against them would only add noise.
type nameSet struct {
	set   map[string]bool
	order []string
}

func (n *nameSet) add(name string) {
	if n.set == nil {
		n.set = map[string]bool{}
	}
	if !n.set[name] {
		n.set[name] = true
		n.order = append(n.order, name)
	}
}

// has reports whether name is declared (always true for a nil set).
func (n *nameSet) has(name string) bool { return n == nil || n.set[name] }

// refs holds the names declared across a suite and its imports. Each file
// checks its references against them while it is read, so that an error
// points at the exact reference even when the declaration lives in
// another file.
type refs struct {
	servers, fixtures, rubrics, providers, faults, scorers *nameSet
}

// refKind describes one kind of reference for messages.
type refKind struct {
	what  string // "server"
	where string // "servers" (the block that declares them)
}

var (
	serverRef   = refKind{"server", "servers"}
	fixtureRef  = refKind{"fixture", "fixtures.errors"}
	rubricRef   = refKind{"rubric", "rubrics"}
	providerRef = refKind{"provider", "providers"}
	faultRef    = refKind{"fault", "faults"}
	scorerRef   = refKind{"scorer", "scorers"}
)

// checkRef reports name, read from node n, when set does not declare it.
func (l *loader) checkRef(n *yaml.Node, ptr string, kind refKind, set *nameSet, name string) bool {
	if set.has(name) {
		return true
	}
	hint := fmt.Sprintf("no %s is declared; declare it under %s", kind.what, kind.where)
	if len(set.order) > 0 {
		hint = fmt.Sprintf("declared %ss: %s", kind.what, strings.Join(set.order, ", "))
		if s := suggest.Closest(name, set.order); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
	}
	l.C.Add(n, ptr, fmt.Sprintf("unknown %s %q", kind.what, name), hint)
	return false
}

// ref reads a non-empty reference and checks it against set.
func (l *loader) ref(n *yaml.Node, ptr, what string, kind refKind, set *nameSet) string {
	name, ok := l.NonEmptyStr(n, ptr, what)
	if ok {
		l.checkRef(n, ptr, kind, set, name)
	}
	return name
}

// collectRefs gathers the declared names of every file. It reports
// nothing: each file's walk reports its own malformed declarations.
func (b *build) collectRefs() *refs {
	r := &refs{}
	var servers nameSet
	serversOK, sawServers := true, false
	var fixtures, rubrics, providers, faults, scorers nameSet
	for _, d := range b.merge {
		if d.root == nil {
			continue
		}
		scratch := newLoader(d.file)
		if n, _ := topValue(d.root, "servers"); n != nil {
			sawServers = true
			if m := yamlpos.Deref(n); m.Kind == yaml.MappingNode {
				for _, e := range scratch.Entries(m, "") {
					servers.add(e.Key)
				}
			} else {
				serversOK = false
			}
		}
		if n, _ := topValue(d.root, "fixtures"); n != nil {
			if errs, _ := scratchField(scratch, n, "errors"); errs != nil && yamlpos.Deref(errs).Kind == yaml.SequenceNode {
				for _, item := range yamlpos.Deref(errs).Content {
					if name, ok := scratchName(scratch, item, "name"); ok {
						fixtures.add(name)
					}
				}
			}
		}
		for _, block := range []struct {
			key string
			set *nameSet
		}{{"rubrics", &rubrics}, {"providers", &providers}} {
			if n, _ := topValue(d.root, block.key); n != nil {
				if m := yamlpos.Deref(n); m.Kind == yaml.MappingNode {
					for _, e := range scratch.Entries(m, "") {
						block.set.add(e.Key)
					}
				}
			}
		}
		for _, block := range []struct {
			key string
			set *nameSet
		}{{"faults", &faults}, {"scorers", &scorers}} {
			if n, _ := topValue(d.root, block.key); n != nil {
				if s := yamlpos.Deref(n); s.Kind == yaml.SequenceNode {
					for _, item := range s.Content {
						if name, ok := scratchName(scratch, item, "name"); ok {
							block.set.add(name)
						}
					}
				}
			}
		}
	}
	if serversOK && sawServers {
		r.servers = &servers
	}
	r.fixtures, r.rubrics, r.providers, r.faults, r.scorers = &fixtures, &rubrics, &providers, &faults, &scorers
	return r
}

// scratchField returns the value of key in mapping n, silently.
func scratchField(scratch *loader, n *yaml.Node, key string) (*yaml.Node, bool) {
	m := yamlpos.Deref(n)
	if m.Kind != yaml.MappingNode {
		return nil, false
	}
	for _, e := range scratch.Entries(m, "") {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

// scratchName returns the string value of key in mapping n, silently.
func scratchName(scratch *loader, n *yaml.Node, key string) (string, bool) {
	v, ok := scratchField(scratch, n, key)
	if !ok {
		return "", false
	}
	return yamlpos.StringOf(yamlpos.Deref(v))
}
