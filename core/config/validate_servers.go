package config

import (
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// serverKeys are the keys of one server, all shapes together: a server
// takes exactly one of command, url and cassette, and the keys that go
// with it.
var serverKeys = yamlpos.NewObjectSpec("a server",
	yamlpos.Key("command"),
	yamlpos.Key("env"),
	yamlpos.Key("url"),
	yamlpos.Key("auth"),
	yamlpos.Key("headers"),
	yamlpos.Key("http"),
	yamlpos.Key("wait_for_ready"),
	yamlpos.Key("cassette"),
	yamlpos.Key("client"),
	yamlpos.Key("restart_policy"),
	yamlpos.Key("fixture"),
).WithMisplaced(map[string]string{
	"args":      `put the arguments in command, after the executable: command: ["./server", "--flag"]`,
	"transport": "the transport follows from the shape: command: for stdio, url: for HTTP (http.transport: sse picks legacy HTTP+SSE)",
	"fixtures":  "a server takes one fixture directory: fixture: ./fixtures/dir",
	"mtls":      "client certificates are not supported yet; server TLS settings go under http.tls",
	"tls":       "TLS settings go under http.tls",
	"timeout":   "HTTP timeouts go under http.timeout",
})

// urlOnlyKeys are the server keys that only apply to url: servers.
var urlOnlyKeys = []string{"auth", "headers", "http", "wait_for_ready"}

// servers reads the servers block into s.
func (l *loader) servers(s *Suite, n *yaml.Node, ptr string) {
	const example = `for example: servers: {local: {command: ["./my-server"]}}`
	m := yamlpos.Deref(n)
	if m.Kind != yaml.MappingNode {
		l.C.Add(n, ptr, "expected the servers block (an object of named servers), found "+yamlpos.Describe(m), example)
		return
	}
	es := l.Entries(m, ptr)
	if len(es) == 0 {
		l.C.Add(n, ptr, "servers must declare at least one server", example)
		return
	}
	for _, e := range es {
		sp := yamlpos.Child(ptr, e.Key)
		if e.Key == "" {
			l.C.Add(e.KeyNode, sp, "a server name must not be empty", "")
			continue
		}
		if srv := l.server(e.Key, e.KeyNode, e.Value, sp); srv != nil {
			s.Servers[e.Key] = srv
			s.ServerOrder = append(s.ServerOrder, e.Key)
		}
	}
}

// server reads one server; it returns nil when the server is invalid.
// name and at locate it (the key under servers, or the file of
// --server-config).
func (l *loader) server(name string, at, n *yaml.Node, ptr string) *Server {
	if d := yamlpos.Deref(n); d.Kind == yaml.ScalarNode && d.ShortTag() == yamlpos.TagStr {
		hint := "write command: " + argvHint(d.Value)
		if strings.Contains(d.Value, "://") {
			hint = fmt.Sprintf("write url: %q", d.Value)
		}
		l.C.Add(n, ptr, "expected a server (an object), found "+yamlpos.Describe(d), hint)
		return nil
	}
	f, ok := l.Object(n, ptr, serverKeys)
	if !ok {
		return nil
	}
	srv := &Server{Name: name, Env: map[string]string{}, Pos: l.pos(at, ptr)}
	shape := l.Exclusive(f, serverKeys, true, "command", "url", "cassette")
	good := shape != ""
	switch shape {
	case "command":
		srv.Kind = StdioServer
		good = l.notWith(f, "a command: server", urlOnlyKeys...) && good
	case "url":
		srv.Kind = URLServer
		srv.HTTP = defaultHTTP()
		good = l.notWith(f, "a url: server", "env", "fixture") && good
	case "cassette":
		srv.Kind = CassetteServer
		good = l.notWith(f, "a cassette: server", append([]string{"env", "fixture"}, urlOnlyKeys...)...) && good
	}
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		ok := true
		switch fe.Key {
		case "command":
			srv.Command, ok = l.command(fe.Value, fp)
		case "env":
			srv.Env, ok = l.StringMap(fe.Value, fp, "env")
		case "url":
			srv.URL, ok = l.httpURL(fe.Value, fp, "url")
		case "auth":
			srv.Auth = l.auth(fe, fp)
			ok = srv.Auth != nil
		case "headers":
			srv.Headers, ok = l.headers(fe.Value, fp)
		case "http":
			ok = l.httpOptions(&srv.HTTP, fe.Value, fp)
		case "wait_for_ready":
			srv.WaitForReady, ok = l.NonEmptyStr(fe.Value, fp, "wait_for_ready (a URL or a path)")
		case "cassette":
			srv.Cassette, ok = l.NonEmptyStr(fe.Value, fp, "cassette (the path of a recording)")
		case "client":
			srv.Client = l.clientMocks(fe, fp)
			ok = srv.Client != nil
		case "restart_policy":
			srv.RestartPolicy, ok = l.Enum(fe.Value, fp, "restart_policy", RestartPerRun, RestartPerTest, RestartAfterWrite)
			if srv.RestartPolicy == RestartPerRun {
				srv.RestartPolicy = "" // the default, stored as unset
			}
		case "fixture":
			srv.Fixture, ok = l.fixtureDir(fe.Value, fp)
		}
		good = good && ok
	}
	if !good {
		return nil
	}
	return srv
}

// notWith reports the keys of f that do not belong with its shape.
func (l *loader) notWith(f *yamlpos.Fields, shape string, keys ...string) bool {
	ok := true
	for _, k := range keys {
		if f.Has(k) {
			l.C.Add(f.KeyNode(k), yamlpos.Child(f.Ptr, k), fmt.Sprintf("%q does not apply to %s", k, shape), "")
			ok = false
		}
	}
	return ok
}

// command reads a server's argv: a non-empty array of strings whose first
// element, the executable, is not empty.
func (l *loader) command(n *yaml.Node, ptr string) ([]string, bool) {
	d := yamlpos.Deref(n)
	if d.Kind == yaml.ScalarNode && d.ShortTag() == yamlpos.TagStr {
		l.C.Add(n, ptr, "expected command (an array of strings), found "+yamlpos.Describe(d),
			"write it as an array: "+argvHint(d.Value))
		return nil, false
	}
	argv, ok := l.StringList(n, ptr, "command", false)
	if !ok {
		return nil, false
	}
	if len(argv) == 0 {
		l.C.Add(n, ptr, "expected command (an array of strings) with at least one element, found an empty array",
			"the first element is the executable to start")
		return nil, false
	}
	if argv[0] == "" {
		l.C.Add(d.Content[0], ptr+"/0", "the executable (the first element of command) must not be empty", "")
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
