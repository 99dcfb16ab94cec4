package config

import (
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// serverKeys are the keys of one server. Only subprocess (stdio) servers
// are supported so far.
var serverKeys = newObjectSpec("a server",
	requiredKey("command").withHint("url: and cassette: servers are not supported yet by this build"),
	key("env"),
	laterKey("url").asAlone(),
	laterKey("cassette").asAlone(),
	laterKey("auth"),
	laterKey("wait_for_ready"),
	laterKey("headers"),
	laterKey("http"),
)

// servers reads the servers block into s. It returns the declared server
// names, for the checks of tests that refer to them, or nil when the block
// is unusable (in which case references are not checked, to avoid a flood
// of follow-up errors).
func (l *loader) servers(s *Suite, n *yaml.Node, ptr string) []string {
	m := deref(n)
	if m.Kind != yaml.MappingNode {
		l.c.add(n, ptr, "expected the servers block (an object of named servers), found "+describe(m),
			`for example: servers: {local: {command: ["./my-server"]}}`)
		return nil
	}
	es := l.entries(m, ptr)
	if len(es) == 0 {
		l.c.add(n, ptr, "servers must declare at least one server",
			`for example: servers: {local: {command: ["./my-server"]}}`)
		return nil
	}
	names := make([]string, 0, len(es))
	for _, e := range es {
		names = append(names, e.key)
		sp := child(ptr, e.key)
		if e.key == "" {
			l.c.add(e.keyNode, sp, "a server name must not be empty", "")
			continue
		}
		if srv := l.server(e, sp); srv != nil {
			s.Servers[e.key] = srv
			s.ServerOrder = append(s.ServerOrder, e.key)
		}
	}
	return names
}

// server reads one server; it returns nil when the server is invalid.
func (l *loader) server(e entry, ptr string) *Server {
	if d := deref(e.value); d.Kind == yaml.ScalarNode && d.ShortTag() == tagStr {
		l.c.add(e.value, ptr, "expected a server (an object), found "+describe(d),
			"write command: "+argvHint(d.Value))
		return nil
	}
	f, ok := l.object(e.value, ptr, serverKeys)
	if !ok {
		return nil
	}
	srv := &Server{Name: e.key, Env: map[string]string{}, Pos: l.pos(e.keyNode, ptr)}
	good := true
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		switch fe.key {
		case "command":
			srv.Command, ok = l.command(fe.value, fp)
		case "env":
			srv.Env, ok = l.stringMap(fe.value, fp, "env")
		}
		good = good && ok
	}
	if !good || srv.Command == nil {
		return nil
	}
	return srv
}

// command reads a server's argv: a non-empty array of strings whose first
// element, the executable, is not empty.
func (l *loader) command(n *yaml.Node, ptr string) ([]string, bool) {
	d := deref(n)
	if d.Kind == yaml.ScalarNode && d.ShortTag() == tagStr {
		l.c.add(n, ptr, "expected command (an array of strings), found "+describe(d),
			"write it as an array: "+argvHint(d.Value))
		return nil, false
	}
	argv, ok := l.stringList(n, ptr, "command", false)
	if !ok {
		return nil, false
	}
	if len(argv) == 0 {
		l.c.add(n, ptr, "expected command (an array of strings) with at least one element, found an empty array",
			"the first element is the executable to start")
		return nil, false
	}
	if argv[0] == "" {
		l.c.add(d.Content[0], ptr+"/0", "the executable (the first element of command) must not be empty", "")
		return nil, false
	}
	return argv, true
}

// argvHint renders a command line written as one string as a YAML flow
// array, split on spaces.
func argvHint(s string) string {
	parts := strings.Fields(s)
	quoted := make([]string, len(parts))
	for i, p := range parts {
		b, _ := json.Marshal(p)
		quoted[i] = string(b)
	}
	return fmt.Sprintf("[%s]", strings.Join(quoted, ", "))
}

// pos is the position of node n (as written) with pointer ptr.
func (l *loader) pos(n *yaml.Node, ptr string) Pos {
	return Pos{File: l.c.file, Line: n.Line, Col: n.Column, Pointer: ptr}
}
