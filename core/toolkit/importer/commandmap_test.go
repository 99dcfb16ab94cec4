package importer

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A whole command line wins over a program, a program keeps its
// arguments, an unmatched command is left alone, and a server converted
// without --share-servers restarts after a write (per test with
// --strict-isolation).
func TestCommandMapRewritesServers(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.yaml", "name: a\nserver: {command: go, args: [run, example.com/srv@v1]}\nassert: {tool: t, expect: {not_error: true}}\n")
	write(t, dir, "b.yaml", "name: b\nserver: {command: /tmp/srv, args: [--flag]}\nassert: {tool: t, expect: {not_error: true}}\n")
	write(t, dir, "c.yaml", "name: c\nserver: {command: other}\nassert: {tool: t, expect: {not_error: true}}\n")
	m, err := ParseCommandMap([]string{"go run example.com/srv@v1=/bin/srv -v", "/tmp/srv=/bin/srv", "go=/bin/go2"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Convert([]string{dir}, Options{Out: filepath.Join(dir, "out.yml"), Commands: m})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range res.Suite.Tools {
		s := res.Suite.Servers[tc.Server]
		got = append(got, strings.Join(s.Command, " ")+"|"+s.RestartPolicy)
	}
	want := "/bin/srv -v|after_write,/bin/srv --flag|after_write,other|after_write"
	if strings.Join(got, ",") != want {
		t.Errorf("commands %q, want %q", strings.Join(got, ","), want)
	}
	res, _ = Convert([]string{dir}, Options{Out: filepath.Join(dir, "out.yml"), StrictIsolation: true})
	for name, s := range res.Suite.Servers {
		if s.RestartPolicy != "per_test" {
			t.Errorf("--strict-isolation: server %s has restart_policy %q, want per_test", name, s.RestartPolicy)
		}
	}
	res, _ = Convert([]string{dir}, Options{Out: filepath.Join(dir, "out.yml"), ShareServers: true})
	for _, s := range res.Suite.Servers {
		if s.RestartPolicy != "" {
			t.Errorf("--share-servers left restart_policy %q", s.RestartPolicy)
		}
	}
}

func TestCommandMapRefusesHalfEntries(t *testing.T) {
	for _, e := range []string{"srv", "=x", "srv=", " = "} {
		if _, err := ParseCommandMap([]string{e}); !errors.Is(err, ErrBadCommandMap) {
			t.Errorf("%q: err %v, want ErrBadCommandMap", e, err)
		}
	}
}

// mcp-assert's roots are bare paths; {{fixture}} names the fixture
// directory. Each becomes a {uri, name} object mcptest accepts.
func TestRootsBecomeObjects(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "r.yaml", "name: r\nserver:\n  command: srv\n  client_capabilities:\n    roots: [\"{{fixture}}\", /srv/work, \"file:///x\"]\nassert: {tool: roots, expect: {not_error: true}}\n")
	res, err := Convert([]string{dir}, Options{Out: filepath.Join(dir, "out.yml"), Fixture: dir})
	if err != nil || res.Converted != 1 {
		t.Fatalf("err %v, result %+v", err, res)
	}
	var srv *Server
	for _, s := range res.Suite.Servers {
		srv = s
	}
	rs := srv.Client["roots"].([]any)
	var got []string
	for _, r := range rs {
		o := r.(map[string]any)
		got = append(got, o["uri"].(string)+" "+o["name"].(string))
	}
	want := "file://" + filepath.ToSlash(dir) + " " + filepath.Base(dir) + ",file:///srv/work work,file:///x x"
	if strings.Join(got, ",") != want {
		t.Errorf("roots %q, want %q", strings.Join(got, ","), want)
	}
	if len(res.Issues) != 1 || !res.Issues[0].Note || !strings.Contains(res.Issues[0].Msg, "fixture directory itself") {
		t.Errorf("issues %v, want one note about the fixture root", res.Issues)
	}
}
