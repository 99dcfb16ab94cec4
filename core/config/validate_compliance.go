package config

import (
	"gopkg.in/yaml.v3"
)

// complianceKeys are the keys of one compliance check.
var complianceKeys = newObjectSpec("a compliance check",
	requiredKey("name"),
	requiredKey("server"),
	requiredKey("check"),
	key("expect"),
)

// compliance reads the compliance block into s.
func (l *loader) compliance(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the compliance block (an array of checks)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, complianceKeys)
		if !ok {
			continue
		}
		c := &ComplianceTest{Pos: l.pos(item, ip)}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				c.Name, _ = l.nonEmptyStr(e.value, ep, "the test name")
			case "server":
				c.Server = l.ref(e.value, ep, "a server name", serverRef, l.refs.servers)
			case "check":
				c.Check, _ = l.nonEmptyStr(e.value, ep, "the check identifier")
			case "expect":
				c.Expect, c.ExpectOptions = l.expect(e.value, ep)
			}
		}
		s.Compliance = append(s.Compliance, c)
	}
}
