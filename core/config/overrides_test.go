package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestServerOverrides(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"one.yml": "servers:\n  api: {command: [./api], env: {A: b}}\n",
		"two.yml": "servers:\n  api: {command: [./api]}\n  db: {url: \"https://db.example.com\"}\n",
		"srv.yml": "url: \"https://${HOST}/mcp\"\nauth: {bearer_token_env: CFG_TOKEN}\nheaders: {X-Env: preview}\n",
		"map.yml": "servers:\n  db: {command: [./local-db]}\n",
		"bad.yml": "servers:\n  nope: {command: [x]}\n",
	})
	env := map[string]string{"HOST": "preview.example.com", "CFG_TOKEN": "cfg-secret", "FLAG_TOKEN": "flag-secret"}
	load := func(file string, o ServerOverrides) (*Suite, error) {
		opts := envOptions(env)
		opts.Servers = o
		return LoadWith(filepath.Join(dir, file), opts)
	}

	s, err := load("one.yml", ServerOverrides{URL: "https://preview.example.com/mcp", BearerEnv: "FLAG_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	api := s.Servers["api"]
	if api.Kind != URLServer || api.URL != "https://preview.example.com/mcp" || api.Command != nil || len(api.Env) != 0 ||
		api.Auth.BearerTokenEnv != "FLAG_TOKEN" || api.HTTP.Timeout != DefaultHTTPTimeout {
		t.Errorf("api = %+v", api)
	}
	if !slices.Contains(s.Secrets, "flag-secret") {
		t.Errorf("Secrets = %v", s.Secrets)
	}
	if len(s.Overrides) != 2 || !strings.Contains(s.Overrides[0], "--server-url") || !strings.Contains(s.Overrides[1], "--server-auth-bearer-env") {
		t.Errorf("Overrides = %v", s.Overrides)
	}

	// A config file replaces the block; a single-field flag then wins.
	s, err = load("one.yml", ServerOverrides{Config: filepath.Join(dir, "srv.yml"), Command: `./dev --name "a b"`})
	if err != nil {
		t.Fatal(err)
	}
	if api := s.Servers["api"]; api.Kind != StdioServer || api.URL != "" || api.Auth != nil || api.Headers != nil || len(s.Overrides) != 2 {
		t.Errorf("--server-command after --server-config: %+v %v", api, s.Overrides)
	}
	s, err = load("one.yml", ServerOverrides{Config: filepath.Join(dir, "srv.yml"), BearerEnv: "FLAG_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	api = s.Servers["api"]
	if api.URL != "https://preview.example.com/mcp" || api.Auth.BearerTokenEnv != "FLAG_TOKEN" || len(api.Headers) != 1 {
		t.Errorf("api = %+v", api)
	}

	s, err = load("two.yml", ServerOverrides{Command: `db=./dev --name "a b"`, Config: "api=" + filepath.Join(dir, "srv.yml")})
	if err != nil {
		t.Fatal(err)
	}
	if db := s.Servers["db"]; db.Kind != StdioServer || !slices.Equal(db.Command, []string{"./dev", "--name", "a b"}) || db.Auth != nil {
		t.Errorf("db = %+v", db)
	}
	if s.Servers["api"].Kind != URLServer {
		t.Errorf("api = %+v", s.Servers["api"])
	}

	s, err = load("two.yml", ServerOverrides{Config: filepath.Join(dir, "map.yml")})
	if err != nil || s.Servers["db"].Command[0] != "./local-db" || s.Servers["api"].Command[0] != "./api" {
		t.Errorf("servers: map: %v %+v", err, s)
	}

	failures := []struct {
		file string
		o    ServerOverrides
		want string
	}{
		{"two.yml", ServerOverrides{URL: "https://x.example.com"}, "--server-url: the suite declares 2 servers (api, db); say which one"},
		{"one.yml", ServerOverrides{URL: "https://x.example.com", Command: "./x"}, "--server-url and --server-command cannot be used together"},
		{"one.yml", ServerOverrides{URL: "not a url"}, "is not an absolute http or https URL"},
		{"one.yml", ServerOverrides{BearerEnv: "T"}, `--server-auth-bearer-env applies to URL servers; "api" is a stdio server`},
		{"one.yml", ServerOverrides{Command: `./x "unclosed`}, "cannot be split into words"},
		{"one.yml", ServerOverrides{Config: filepath.Join(dir, "bad.yml")}, `the suite has no server "nope" to replace`},
		{"one.yml", ServerOverrides{Config: filepath.Join(dir, "missing.yml")}, "cannot read the --server-config file"},
	}
	for _, f := range failures {
		_, err := load(f.file, f.o)
		if err == nil || !strings.Contains(err.Error(), f.want) {
			t.Errorf("%+v: error = %v, want %q", f.o, err, f.want)
		}
	}
}

// TestOAuthOverride: --oauth gives every URL server without an auth block
// the authorization code flow with discovery, and leaves the others (a
// bearer token, a stdio server) as they are.
func TestOAuthOverride(t *testing.T) {
	dir := writeFiles(t, map[string]string{"s.yml": `servers:
  open: {url: "https://open.example.com/mcp"}
  token: {url: "https://token.example.com/mcp", auth: {bearer_token_env: TOK}}
  local: {command: [./srv]}
`})
	opts := envOptions(map[string]string{"TOK": "token-value"})
	opts.Servers = ServerOverrides{OAuth: true}
	s, err := LoadWith(filepath.Join(dir, "s.yml"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if o := s.Servers["open"].Auth; o == nil || o.OAuth == nil || o.OAuth.Flow != "authorization_code" || !o.OAuth.Discovers() {
		t.Errorf("open: %+v", o)
	}
	if a := s.Servers["token"].Auth; a.OAuth != nil || a.BearerTokenEnv != "TOK" {
		t.Errorf("token: %+v", a)
	}
	if s.Servers["local"].Auth != nil {
		t.Errorf("local: %+v", s.Servers["local"].Auth)
	}
	// Without the flag, nothing changes.
	opts.Servers = ServerOverrides{}
	if s, _ := LoadWith(filepath.Join(dir, "s.yml"), opts); s.Servers["open"].Auth != nil {
		t.Errorf("open without --oauth: %+v", s.Servers["open"].Auth)
	}
}
