package config

import (
	"encoding/json"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// resourceKeys are the keys of one resource test.
var resourceKeys = serverTestKeys("a resource test",
	yamlpos.RequiredKey("uri"),
	yamlpos.Key("subscribe"),
	yamlpos.Key("data"),
).WithMisplaced(map[string]string{
	"url":       `a resource is named by its uri: write uri: "file:///..."`,
	"progress":  "progress applies to tool tests only",
	"log_level": "log_level applies to tool tests only",
	"client":    "a resource test uses its server's client block",
	"transform": "transform applies to tool tests only",
	"capture":   "capture applies to tool tests only",
})

// promptKeys are the keys of one prompt test.
var promptKeys = serverTestKeys("a prompt test",
	yamlpos.RequiredKey("prompt"),
	yamlpos.Key("args"),
	yamlpos.Key("data"),
).WithMisplaced(map[string]string{
	"transform": "transform applies to tool tests only",
	"capture":   "capture applies to tool tests only",
	"progress":  "progress applies to tool tests only",
	"log_level": "log_level applies to tool tests only",
	"client":    "a prompt test uses its server's client block",
})

// resources reads the resources block into s.
func (l *loader) resources(s *Suite, n *yaml.Node, ptr string) {
	tests, _ := rowTests(l, n, ptr, "the resources block (an array of resource tests)", l.resource,
		func(t *ResourceTest) (*string, *TestOptions) { return &t.Name, &t.TestOptions })
	s.Resources = append(s.Resources, tests...)
}

// resource reads one resource test.
func (l *loader) resource(i int, item *yaml.Node, ip string) *ResourceTest {
	f, ok := l.Object(item, ip, resourceKeys)
	if !ok {
		return nil
	}
	t := &ResourceTest{Index: i, Pos: l.pos(item, ip)}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ip, e.Key)
		switch e.Key {
		case "name":
			t.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
		case "server":
			t.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
		case "uri":
			t.URI, _ = l.NonEmptyStr(e.Value, ep, "the resource uri")
		case "subscribe":
			t.Subscribe = l.subscribe(e, ep)
		default:
			l.option(&t.TestOptions, e, ep)
		}
	}
	if t.Subscribe == nil {
		l.optionalKeyTargets(t.Expect, "updates", "a resource test with a subscribe block")
	}
	l.optionalKeyTargets(t.Expect, "progress", "a tool test with progress: true")
	return t
}

// prompts reads the prompts block into s.
func (l *loader) prompts(s *Suite, n *yaml.Node, ptr string) {
	tests, _ := rowTests(l, n, ptr, "the prompts block (an array of prompt tests)", l.prompt,
		func(t *PromptTest) (*string, *TestOptions) { return &t.Name, &t.TestOptions })
	s.Prompts = append(s.Prompts, tests...)
}

// prompt reads one prompt test.
func (l *loader) prompt(i int, item *yaml.Node, ip string) *PromptTest {
	f, ok := l.Object(item, ip, promptKeys)
	if !ok {
		return nil
	}
	t := &PromptTest{Index: i, Args: json.RawMessage("{}"), Pos: l.pos(item, ip)}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ip, e.Key)
		switch e.Key {
		case "name":
			t.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
		case "server":
			t.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
		case "prompt":
			t.Prompt, _ = l.NonEmptyStr(e.Value, ep, "the prompt name")
		case "args":
			if args := l.args(e.Value, ep, "args (an object of prompt arguments)"); args != nil {
				t.Args = args
			}
		default:
			l.option(&t.TestOptions, e, ep)
		}
	}
	return t
}
