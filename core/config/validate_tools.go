package config

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// toolKeys are the keys of one tool test.
var toolKeys = newObjectSpec("a tool test",
	requiredKey("name"),
	requiredKey("server"),
	requiredKey("tool"),
	key("args"),
	key("expect"),
	key("timeout_ms"),
	key("tags"),
	laterKey("transform"),
	laterKey("threshold"),
	laterKey("derivedMetrics"),
	laterKey("inject_error"),
	laterKey("profile"),
	laterKey("data"),
	laterKey("cassette"),
)

// serverNames are the names declared under servers, for the check of the
// tests' server references.
type serverNames struct {
	set   map[string]bool
	order []string
}

func newServerNames(order []string) *serverNames {
	if order == nil {
		return nil
	}
	set := make(map[string]bool, len(order))
	for _, n := range order {
		set[n] = true
	}
	return &serverNames{set: set, order: order}
}

// tools reads the tools block into s. servers is nil when the servers
// block is unusable; references are then not checked.
func (l *loader) tools(s *Suite, n *yaml.Node, ptr string, servers *serverNames) {
	d := deref(n)
	if d.Kind != yaml.SequenceNode {
		l.c.add(n, ptr, "expected the tools block (an array of tool tests), found "+describe(d), "")
		return
	}
	s.Tools = make([]*ToolTest, 0, len(d.Content))
	for i, item := range d.Content {
		if t := l.tool(i, item, ptr+"/"+strconv.Itoa(i), servers); t != nil {
			s.Tools = append(s.Tools, t)
		}
	}
}

// tool reads one tool test.
func (l *loader) tool(i int, n *yaml.Node, ptr string, servers *serverNames) *ToolTest {
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
			t.Server = l.serverRef(e.value, ep, servers)
		case "tool":
			t.Tool, _ = l.nonEmptyStr(e.value, ep, "the tool name")
		case "args":
			if args := l.args(e.value, ep); args != nil {
				t.Args = args
			}
		case "expect":
			t.Expect = l.expect(e.value, ep)
		case "timeout_ms":
			t.TimeoutMS, _ = l.positiveInt(e.value, ep, "timeout_ms")
		case "tags":
			t.Tags, _ = l.stringList(e.value, ep, "tags", true)
		}
	}
	return t
}

// serverRef reads a test's server, which must be declared under servers.
func (l *loader) serverRef(n *yaml.Node, ptr string, servers *serverNames) string {
	name, ok := l.nonEmptyStr(n, ptr, "a server name")
	if !ok || servers == nil || servers.set[name] {
		return name
	}
	hint := "declared servers: " + strings.Join(servers.order, ", ")
	if s := suggest(name, servers.order); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	}
	l.c.add(n, ptr, fmt.Sprintf("unknown server %q", name), hint)
	return name
}

// args reads the tool arguments, an object, as JSON.
func (l *loader) args(n *yaml.Node, ptr string) json.RawMessage {
	if d := deref(n); d.Kind != yaml.MappingNode {
		l.c.add(n, ptr, "expected args (an object of tool arguments), found "+describe(d), "")
		return nil
	}
	return l.toJSON(n, ptr)
}
