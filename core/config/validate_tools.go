package config

import (
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// toolKeys are the keys of one tool test.
var toolKeys = serverTestKeys("a tool test",
	yamlpos.RequiredKey("tool"),
	yamlpos.Key("args"),
	yamlpos.Key("inject_error"),
	yamlpos.Key("data"),
	yamlpos.Key("transform"),
	yamlpos.Key("capture"),
	yamlpos.Key("client"),
	yamlpos.Key("progress"),
	yamlpos.Key("log_level"),
).WithMisplaced(map[string]string{
	"logLevel":  `write log_level`,
	"subscribe": "subscriptions are resource tests: resources: [{uri, subscribe: {...}}]",
	"cassette":  "cassette replay is set on a server: servers.<name>.cassette",
	"arguments": `did you mean "args"?`,
	"matcher":   "matchers go inside expect: a list of {target, matcher}",
	"steps":     "a sequence of calls is a composition: see the compositions block",
})

// tools reads the tools block into s.
func (l *loader) tools(s *Suite, n *yaml.Node, ptr string) {
	tools, ok := rowTests(l, n, ptr, "the tools block (an array of tool tests)", l.tool,
		func(t *ToolTest) (*string, *TestOptions) { return &t.Name, &t.TestOptions })
	if ok {
		s.Tools = tools
	}
}

// tool reads one tool test.
func (l *loader) tool(i int, n *yaml.Node, ptr string) *ToolTest {
	f, ok := l.Object(n, ptr, toolKeys)
	if !ok {
		return nil
	}
	t := l.toolSlab.new()
	*t = ToolTest{Index: i, Args: json.RawMessage("{}"), Pos: l.pos(n, ptr)}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "name":
			t.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
		case "server":
			t.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
		case "tool":
			t.Tool, _ = l.NonEmptyStr(e.Value, ep, "the tool name")
		case "args":
			if args := l.args(e.Value, ep, "args (an object of tool arguments)"); args != nil {
				t.Args = args
			}
		case "inject_error":
			t.InjectError = l.ref(e.Value, ep, "inject_error (a fixture name)", fixtureRef, l.refs.fixtures)
			l.setKeyPos(&t.TestOptions, e, ep)
		case "transform":
			t.Transform = l.transform(e, ep)
			l.setKeyPos(&t.TestOptions, e, ep)
		case "capture":
			t.Captures = l.captures(e.Value, ep)
		case "client":
			t.Client = l.clientMocks(e, ep)
		case "progress":
			t.Progress, _ = l.Boolean(e.Value, ep, "progress")
		case "log_level":
			t.LogLevel, _ = l.Enum(e.Value, ep, "log_level", LogLevels...)
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
func (l *loader) injectedCall(t *ToolTest, f *yamlpos.Fields) {
	if t.InjectError == "" {
		return
	}
	for _, k := range []string{"client", "progress", "log_level"} {
		if f.Has(k) {
			l.C.Add(f.KeyNode(k), yamlpos.Child(f.Ptr, k), fmt.Sprintf("%q does not apply with inject_error", k),
				"an injected error never reaches the server")
		}
	}
}

// args reads arguments, an object, as JSON.
func (l *loader) args(n *yaml.Node, ptr, what string) json.RawMessage {
	if d := yamlpos.Deref(n); d.Kind != yaml.MappingNode {
		l.C.Add(n, ptr, "expected "+what+", found "+yamlpos.Describe(d), "")
		return nil
	}
	return l.ToJSON(n, ptr)
}
