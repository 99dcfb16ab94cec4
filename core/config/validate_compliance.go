package config

import (
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// complianceKeys are the keys of one compliance check.
var complianceKeys = yamlpos.NewObjectSpec("a compliance check",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("server"),
	yamlpos.RequiredKey("check"),
	yamlpos.Key("expect"),
	yamlpos.Key("timeout_ms"),
	yamlpos.Key("tags"),
	yamlpos.Key("profile"),
).WithMisplaced(map[string]string{
	"checks":   `name one check, a prefix such as "J*", or "*" for every check`,
	"severity": "each check has the severity of its requirement: a MUST failure fails, a SHOULD failure warns",
})

// compliance reads the compliance block into s.
func (l *loader) compliance(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the compliance block (an array of checks)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, complianceKeys)
		if !ok {
			continue
		}
		c := &ComplianceTest{Pos: l.pos(item, ip)}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				c.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
			case "server":
				c.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
			case "check":
				c.Check, _ = l.NonEmptyStr(e.Value, ep, "the check identifier")
			default:
				l.option(&c.TestOptions, e, ep)
			}
		}
		s.Compliance = append(s.Compliance, c)
	}
}
