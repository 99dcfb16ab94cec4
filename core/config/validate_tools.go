package config

import (
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"
)

// toolKeys are the keys of one tool test.
var toolKeys = newObjectSpec("a tool test",
	append([]keySpec{
		requiredKey("name"),
		requiredKey("server"),
		requiredKey("tool"),
		key("args"),
		key("inject_error"),
		key("data"),
		key("transform"),
		key("capture"),
		key("client"),
		key("progress"),
		key("log_level"),
	}, optionKeys...)...,
).withMisplaced(map[string]string{
	"logLevel":  `write log_level`,
	"subscribe": "subscriptions are resource tests: resources: [{uri, subscribe: {...}}]",
	"cassette":  "cassette replay is set on a server: servers.<name>.cassette",
	"arguments": `did you mean "args"?`,
	"matcher":   "matchers go inside expect: a list of {target, matcher}",
	"steps":     "a sequence of calls is a composition: see the compositions block",
})

// tools reads the tools block into s.
func (l *loader) tools(s *Suite, n *yaml.Node, ptr string) {
	// eachItem, not seq: a large file's tests are read one at a time.
	tools := []*ToolTest{}
	if l.eachItem(n, ptr, "the tools block (an array of tool tests)", func(i int, item *yaml.Node) {
		if t := l.tool(i, item, index(ptr, i)); t != nil {
			tools = append(tools, t)
		}
	}) {
		s.Tools = tools
	}
}

// tool reads one tool test.
func (l *loader) tool(i int, n *yaml.Node, ptr string) *ToolTest {
	f, ok := l.object(n, ptr, toolKeys)
	if !ok {
		return nil
	}
	t := &ToolTest{Index: i, Args: json.RawMessage("{}"), Pos: l.pos(n, ptr)}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "name":
			t.Name, _ = l.nonEmptyStr(e.value, ep, "the test name")
		case "server":
			t.Server = l.ref(e.value, ep, "a server name", serverRef, l.refs.servers)
		case "tool":
			t.Tool, _ = l.nonEmptyStr(e.value, ep, "the tool name")
		case "args":
			if args := l.args(e.value, ep, "args (an object of tool arguments)"); args != nil {
				t.Args = args
			}
		case "inject_error":
			t.InjectError = l.ref(e.value, ep, "inject_error (a fixture name)", fixtureRef, l.refs.fixtures)
			l.setKeyPos(&t.TestOptions, e, ep)
		case "data":
			t.Data = l.dataRows(e.value, ep)
			l.setKeyPos(&t.TestOptions, e, ep)
		case "transform":
			t.Transform = l.transform(e, ep)
			l.setKeyPos(&t.TestOptions, e, ep)
		case "capture":
			t.Captures = l.captures(e.value, ep)
		case "client":
			t.Client = l.clientMocks(e, ep)
		case "progress":
			t.Progress, _ = l.boolean(e.value, ep, "progress")
		case "log_level":
			t.LogLevel, _ = l.enum(e.value, ep, "log_level", LogLevels...)
		default:
			l.option(&t.TestOptions, e, ep)
		}
	}
	l.injectedCall(t, f)
	if !t.Progress {
		l.optionalKeyTargets(t.Expect, "progress", "a tool test with progress: true")
	}
	l.optionalKeyTargets(t.Expect, "updates", "a resource test with a subscribe block")
	return t
}

// injectedCall reports the call options of a test whose answer comes from
// inject_error: no call reaches the server for them to act on.
func (l *loader) injectedCall(t *ToolTest, f *fields) {
	if t.InjectError == "" {
		return
	}
	for _, k := range []string{"client", "progress", "log_level"} {
		if f.has(k) {
			l.c.add(f.keyNode(k), child(f.ptr, k), fmt.Sprintf("%q does not apply with inject_error", k),
				"an injected error never reaches the server")
		}
	}
}

// args reads arguments, an object, as JSON.
func (l *loader) args(n *yaml.Node, ptr, what string) json.RawMessage {
	if d := deref(n); d.Kind != yaml.MappingNode {
		l.c.add(n, ptr, "expected "+what+", found "+describe(d), "")
		return nil
	}
	return l.toJSON(n, ptr)
}

// dataRows reads the parametric rows of a tool test: an array of objects.
func (l *loader) dataRows(n *yaml.Node, ptr string) []json.RawMessage {
	items, ok := l.nonEmptySeq(n, ptr, "data (an array of rows)")
	if !ok {
		return nil
	}
	out := make([]json.RawMessage, 0, len(items))
	for i, item := range items {
		if row := l.args(item, index(ptr, i), "a data row (an object)"); row != nil {
			out = append(out, row)
		}
	}
	return out
}
