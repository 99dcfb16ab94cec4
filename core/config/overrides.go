package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/google/shlex"
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// ServerOverrides are the command-line flags that retarget a suite's
// servers without editing it. Each value may start with "NAME=" to pick
// one server; without it, the flag applies to the suite's only server.
//
// Precedence, lowest first: the suite's servers block, Config (a whole
// server replaced), then URL, Command and BearerEnv (one field each).
type ServerOverrides struct {
	// URL turns the server into a URL server at this address
	// (--server-url); its command and cassette are dropped.
	URL string
	// Command turns the server into a stdio server running this command
	// line, split with POSIX shell rules (--server-command); its URL
	// settings and cassette are dropped.
	Command string
	// BearerEnv sets auth.bearer_token_env of a URL server
	// (--server-auth-bearer-env).
	BearerEnv string
	// Config is a YAML file holding a server object, or a servers: map, that
	// replaces the server(s) of the same name (--server-config).
	Config string
	// OAuth lets every URL server without an auth block authorize with
	// OAuth when it answers 401: auth.oauth {flow: authorization_code,
	// discover: true} (--oauth).
	OAuth bool
}

// IsZero reports whether no override is set.
func (o ServerOverrides) IsZero() bool { return o == ServerOverrides{} }

// overrideTarget matches the "NAME=" prefix of an override value.
var overrideTarget = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_.-]+)=(.*)$`) })

// applyOverrides rewrites the servers of s from the command-line flags and
// records what changed in s.Overrides.
func (b *build) applyOverrides(s *Suite, sc *scope) {
	o := b.opts.Servers
	if o.IsZero() {
		return
	}
	fail := func(msg, hint string) {
		b.extra = append(b.extra, &Error{File: s.File, Msg: msg, Hint: hint})
	}
	if o.URL != "" && o.Command != "" {
		fail("--server-url and --server-command cannot be used together", "a server is reached one way")
		return
	}
	if o.Config != "" {
		b.applyServerConfig(s, sc)
	}
	if o.URL != "" {
		if srv := b.overrideTarget(s, "--server-url", &o.URL); srv != nil {
			u, err := url.Parse(o.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				fail(fmt.Sprintf("--server-url %q is not an absolute http or https URL", o.URL), "")
				return
			}
			if srv.Kind != URLServer {
				srv.HTTP = defaultHTTP()
			}
			srv.Kind, srv.URL, srv.Command, srv.Env, srv.Cassette = URLServer, o.URL, nil, map[string]string{}, ""
			s.Overrides = append(s.Overrides, fmt.Sprintf("%s: url=%s (--server-url)", srv.Name, o.URL))
		}
	}
	if o.Command != "" {
		if srv := b.overrideTarget(s, "--server-command", &o.Command); srv != nil {
			argv, err := shlex.Split(o.Command)
			if err != nil || len(argv) == 0 {
				fail(fmt.Sprintf("--server-command %q cannot be split into words", o.Command), "check the quotes")
				return
			}
			if srv.Kind != StdioServer {
				srv.Env = map[string]string{}
			}
			srv.Kind, srv.Command, srv.URL, srv.Auth, srv.Headers = StdioServer, argv, "", nil, nil
			srv.HTTP, srv.WaitForReady, srv.Cassette = HTTPOptions{}, "", ""
			s.Overrides = append(s.Overrides, fmt.Sprintf("%s: command=%s (--server-command)", srv.Name, o.Command))
		}
	}
	if o.OAuth {
		for _, name := range s.ServerOrder {
			if srv := s.Servers[name]; srv.Kind == URLServer && srv.Auth == nil {
				c := *srv
				c.Auth = &Auth{OAuth: &OAuth{Flow: "authorization_code", Discover: true}, Pos: srv.Pos}
				s.Servers[name] = &c
			}
		}
	}
	if o.BearerEnv != "" {
		if srv := b.overrideTarget(s, "--server-auth-bearer-env", &o.BearerEnv); srv != nil {
			if srv.Kind != URLServer {
				fail(fmt.Sprintf("--server-auth-bearer-env applies to URL servers; %q is a %s server", srv.Name, srv.Kind),
					"add --server-url, or drop the flag")
				return
			}
			srv.Auth = &Auth{BearerTokenEnv: o.BearerEnv}
			s.Overrides = append(s.Overrides, fmt.Sprintf("%s: auth.bearer_token_env=%s (--server-auth-bearer-env)", srv.Name, o.BearerEnv))
		}
	}
}

// overrideTarget returns a copy of the server a flag applies to, installed
// in s in place of the original, and strips the NAME= prefix from value.
func (b *build) overrideTarget(s *Suite, flag string, value *string) *Server {
	name := ""
	if m := overrideTarget().FindStringSubmatch(*value); m != nil && s.Servers[m[1]] != nil {
		name, *value = m[1], m[2]
	}
	if name == "" {
		if len(s.ServerOrder) != 1 {
			b.extra = append(b.extra, &Error{File: s.File,
				Msg:  fmt.Sprintf("%s: the suite declares %d servers (%s); say which one", flag, len(s.ServerOrder), strings.Join(s.ServerOrder, ", ")),
				Hint: fmt.Sprintf("write %s NAME=VALUE", flag)})
			return nil
		}
		name = s.ServerOrder[0]
	}
	cp := *s.Servers[name]
	s.Servers[name] = &cp
	return &cp
}

// applyServerConfig replaces servers with those of the --server-config
// file: one server object (for the target server), or a servers: map
// (each entry replaces the server of the same name).
func (b *build) applyServerConfig(s *Suite, sc *scope) {
	path := b.opts.Servers.Config
	target := ""
	if m := overrideTarget().FindStringSubmatch(path); m != nil && s.Servers[m[1]] != nil {
		target, path = m[1], m[2]
	}
	data, err := readFile(path)
	if err != nil {
		b.extra = append(b.extra, &Error{File: path, Msg: "cannot read the --server-config file: " + rootCause(err).Error(), Cause: err})
		return
	}
	l := newLoader(path)
	defer func() { b.extra = append(b.extra, l.C.Errs...) }()
	root := l.parse(data)
	if root == nil {
		return
	}
	(&interpolation{l: l, sc: sc}).walk(nil, root)
	replace := func(name string, at, n *yaml.Node, ptr string) {
		if s.Servers[name] == nil {
			l.C.Add(at, ptr, fmt.Sprintf("the suite has no server %q to replace", name),
				"declared servers: "+strings.Join(s.ServerOrder, ", "))
			return
		}
		if srv := l.server(name, at, n, ptr); srv != nil {
			s.Servers[name] = srv
			s.Overrides = append(s.Overrides, fmt.Sprintf("%s: replaced from %s (--server-config)", name, filepath.Base(path)))
		}
	}
	if yamlpos.HasKey(yamlpos.Deref(root), "servers") {
		f, ok := l.Object(root, "", yamlpos.NewObjectSpec("a --server-config file", yamlpos.RequiredKey("servers")))
		if !ok {
			return
		}
		sn, sp := f.Get("servers")
		es, ok := l.Mapping(sn, sp, "servers")
		if !ok {
			return
		}
		for _, e := range es {
			replace(e.Key, e.KeyNode, e.Value, yamlpos.Child(sp, e.Key))
		}
		return
	}
	if target == "" {
		if len(s.ServerOrder) != 1 {
			b.extra = append(b.extra, &Error{File: s.File,
				Msg:  fmt.Sprintf("--server-config: the suite declares %d servers (%s); say which one", len(s.ServerOrder), strings.Join(s.ServerOrder, ", ")),
				Hint: "write --server-config NAME=PATH, or put a servers: map in the file"})
			return
		}
		target = s.ServerOrder[0]
	}
	replace(target, root, root, "")
}
