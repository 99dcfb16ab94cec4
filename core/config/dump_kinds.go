package config

import (
	"gopkg.in/yaml.v3"
)

// dumpList writes one list test.
func dumpList(t *ListTest) *yaml.Node {
	m := newMap()
	m.setStr("name", t.Name)
	m.setStr("server", t.Server)
	m.setStr("list", t.List)
	if t.Cursor != nil {
		m.set("cursor", str(*t.Cursor))
	}
	m.setInt("pages", t.Pages)
	if t.Cursor == nil && t.Pages == 0 && t.MaxPages != DefaultMaxPages {
		m.setInt("max_pages", t.MaxPages)
	}
	dumpCaptures(m, t.Captures)
	dumpOptions(m, &t.TestOptions)
	return m.n
}

// dumpCompletion writes one completion test.
func dumpCompletion(t *CompletionTest) *yaml.Node {
	m := newMap()
	m.setStr("name", t.Name)
	m.setStr("server", t.Server)
	rm := newMap()
	rm.setStr("prompt", t.Ref.Prompt)
	rm.setStr("resource", t.Ref.Resource)
	m.set("ref", rm.n)
	am := newMap()
	am.setStr("name", t.Argument.Name)
	am.set("value", str(t.Argument.Value))
	m.set("argument", am.n)
	if t.Context != nil {
		m.set("context", strMap(t.Context))
	}
	dumpCaptures(m, t.Captures)
	dumpOptions(m, &t.TestOptions)
	return m.n
}

// dumpCaptures writes a capture map, left out when nil.
func dumpCaptures(m *ymap, cs []*Capture) {
	if cs == nil {
		return
	}
	cm := newMap()
	for _, c := range cs {
		cm.set(c.Name, str(c.Target))
	}
	m.set("capture", cm.n)
}
