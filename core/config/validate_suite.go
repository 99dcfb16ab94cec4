package config

import (
	"gopkg.in/yaml.v3"
)

// suiteKeys are the top-level keys of the v1 format (the spec's table plus
// the top-level blocks it documents elsewhere).
var suiteKeys = newObjectSpec("the suite",
	requiredKey("servers"),
	key("tools"),
	key("performance"), // only default_timeout_ms so far
	laterKey("imports"),
	laterKey("variables"),
	laterKey("resources"),
	laterKey("prompts"),
	laterKey("agents"),
	laterKey("faults"),
	laterKey("providers"),
	laterKey("budget"),
	laterKey("compliance"),
	laterKey("evals"),
	laterKey("rubrics"),
	laterKey("model_compatibility"),
	laterKey("target_versions"),
	laterKey("defaultTest"),
	laterKey("hooks"),
	laterKey("scorers"),
	laterKey("fixtures"),
	laterKey("compositions"),
)

// performanceKeys are the keys of the performance block.
var performanceKeys = newObjectSpec("the performance block",
	key("default_timeout_ms"),
	laterKey("p95_latency_ms"),
)

// suite checks the top-level object and builds the Suite.
func (l *loader) suite(root *yaml.Node) *Suite {
	s := &Suite{File: l.c.file, Servers: map[string]*Server{}}
	f, ok := l.object(root, "", suiteKeys)
	if !ok {
		return s
	}
	// Servers first, wherever they are in the file: tests refer to them.
	var names *serverNames
	if n, ptr := f.get("servers"); n != nil {
		names = newServerNames(l.servers(s, n, ptr))
	}
	for _, e := range f.entries {
		ptr := child("", e.key)
		switch e.key {
		case "tools":
			l.tools(s, e.value, ptr, names)
		case "performance":
			l.performance(s, e.value, ptr)
		}
	}
	return s
}

// performance reads the performance block.
func (l *loader) performance(s *Suite, n *yaml.Node, ptr string) {
	f, ok := l.object(n, ptr, performanceKeys)
	if !ok {
		return
	}
	for _, e := range f.entries {
		if e.key == "default_timeout_ms" {
			s.DefaultTimeoutMS, _ = l.positiveInt(e.value, child(ptr, e.key), "default_timeout_ms")
		}
	}
}
