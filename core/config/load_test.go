package config

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestErrorFields(t *testing.T) {
	_, err := Load("testdata/invalid/bad_server_ref.yml")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("errors.As(*Error) failed on %v", err)
	}
	want := &Error{File: "testdata/invalid/bad_server_ref.yml", Line: 8, Col: 13,
		Pointer: "/tools/0/server", Msg: `unknown server "locl"`, Hint: `did you mean "local"?`}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("first error = %#v, want %#v", e, want)
	}
	if got := e.Error(); got != `testdata/invalid/bad_server_ref.yml:8:13: /tools/0/server: unknown server "locl" (did you mean "local"?)` {
		t.Errorf("Error() = %s", got)
	}
	if !errors.Is(e, ErrInvalidSuite) {
		t.Errorf("a single *Error does not match ErrInvalidSuite")
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join("testdata", "no-such-suite.yml")
	_, err := Load(path)
	if err == nil {
		t.Fatal("Load of a missing file succeeded")
	}
	if !errors.Is(err, ErrInvalidSuite) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is: ErrInvalidSuite=%v ErrNotExist=%v", errors.Is(err, ErrInvalidSuite), errors.Is(err, fs.ErrNotExist))
	}
	abs, _ := filepath.Abs(path)
	if want := path + ": suite file not found (looked for " + abs + ")"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestLoadDirectory(t *testing.T) {
	_, err := Load("testdata")
	if err == nil || !errors.Is(err, ErrInvalidSuite) || !strings.HasPrefix(err.Error(), "testdata: cannot read suite file: ") {
		t.Errorf("Load(dir) error = %v", err)
	}
}

func TestLoadFiles(t *testing.T) {
	suites, err := LoadFiles([]string{"testdata/valid/minimal.yml", "testdata/valid/full.yml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(suites) != 2 || suites[0].File != "testdata/valid/minimal.yml" || suites[1].File != "testdata/valid/full.yml" {
		t.Fatalf("suites out of order: %v", suites)
	}

	paths := []string{"testdata/invalid/matcher_zero_keys.yml", "testdata/valid/minimal.yml",
		"testdata/missing.yml", "testdata/invalid/bad_server_ref.yml"}
	suites, err = LoadFiles(paths)
	if suites != nil || !errors.Is(err, ErrInvalidSuite) {
		t.Fatalf("LoadFiles = %v, %v", suites, err)
	}
	var files []string
	for _, e := range err.(Errors) {
		files = append(files, e.File)
	}
	want := []string{paths[0], paths[2], paths[3], paths[3]}
	if !slices.Equal(files, want) {
		t.Errorf("error files = %v, want %v", files, want)
	}
}

func TestLoadMinimal(t *testing.T) {
	s, err := Load("testdata/valid/minimal.yml")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata/valid")
	if s.File != "testdata/valid/minimal.yml" || s.Dir != abs {
		t.Errorf("File, Dir = %q, %q", s.File, s.Dir)
	}
	srv := s.Servers["local"]
	if srv == nil || !slices.Equal(srv.Command, []string{"./target/debug/my-mcp-server"}) || srv.Env == nil {
		t.Fatalf("server = %+v", srv)
	}
	if len(s.Tools) != 1 || len(s.Tools[0].Expect) != 1 {
		t.Fatalf("tools = %+v", s.Tools)
	}
	m := s.Tools[0].Expect[0].Matcher
	if m.Key != "schema" || string(m.Arg) != `{"type":"array","minItems":1}` {
		t.Errorf("matcher = %s %s", m.Key, m.Arg)
	}
}

func TestLoadFull(t *testing.T) {
	const file = "testdata/valid/full.yml"
	s, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.ServerOrder, []string{"filesystem", "echo"}) || len(s.Servers) != 2 {
		t.Errorf("ServerOrder = %v", s.ServerOrder)
	}
	fsrv := s.Servers["filesystem"]
	wantFS := &Server{
		Name:    "filesystem",
		Kind:    StdioServer,
		Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"},
		Env:     map[string]string{"LOG_LEVEL": "info", "PORT": "8080"},
		Pos:     Pos{File: file, Line: 4, Col: 3, Pointer: "/servers/filesystem"},
	}
	if !reflect.DeepEqual(fsrv, wantFS) {
		t.Errorf("filesystem = %+v", fsrv)
	}
	if e := s.Servers["echo"]; len(e.Env) != 0 || e.Env == nil || !slices.Equal(e.Command, []string{"./echo-server"}) {
		t.Errorf("echo = %+v", e)
	}
	if s.DefaultTimeoutMS != 15000 {
		t.Errorf("DefaultTimeoutMS = %d", s.DefaultTimeoutMS)
	}
	if len(s.Tools) != 3 {
		t.Fatalf("%d tools", len(s.Tools))
	}

	t0 := s.Tools[0]
	if t0.Index != 0 || t0.Name != "lists a directory" || t0.Server != "filesystem" || t0.Tool != "list_directory" ||
		t0.TimeoutMS != 5000 || !slices.Equal(t0.Tags, []string{"smoke", "fs"}) ||
		string(t0.Args) != `{"path":"/tmp","depth":2}` {
		t.Errorf("tool 0 = %+v args %s", t0, t0.Args)
	}
	if t0.Pos != (Pos{File: file, Line: 18, Col: 5, Pointer: "/tools/0"}) {
		t.Errorf("tool 0 pos = %+v", t0.Pos)
	}
	a0 := t0.Expect[0]
	wantA0 := &Assertion{
		Target:  "result.content",
		Message: "directory listing should not be empty",
		Weight:  1,
		Matcher: Matcher{Key: "schema", Arg: json.RawMessage(`{"type":"array","minItems":1}`),
			Pos: Pos{File: file, Line: 29, Col: 11, Pointer: "/tools/0/expect/0/matcher"}},
		Pos: Pos{File: file, Line: 27, Col: 9, Pointer: "/tools/0/expect/0"},
	}
	if !reflect.DeepEqual(a0, wantA0) {
		t.Errorf("assertion 0 = %+v", a0)
	}
	if m := t0.Expect[1].Matcher; m.Key != "exact" || string(m.Arg) != "false" {
		t.Errorf("assertion 1 matcher = %s %s", m.Key, m.Arg)
	}

	// Merge keys bring server and tool; args keep big integers and
	// literals, timestamps stay strings.
	t1 := s.Tools[1]
	const args = `{"big":123456789012345678901234567890,"hex":31,"price":1.50,"when":"2001-12-14","none":null,"nested":{"list":[1,"two",3.0,true]}}`
	if t1.Server != "echo" || t1.Tool != "echo" || string(t1.Args) != args || t1.TimeoutMS != 0 || t1.Tags != nil {
		t.Errorf("tool 1 = %+v args %s", t1, t1.Args)
	}
	if m := t1.Expect[1]; m.Target != "" || m.Matcher.Key != "is-sql" || string(m.Matcher.Arg) != "null" {
		t.Errorf("tool 1 assertion 1 = %+v", m)
	}
	t2 := s.Tools[2]
	if t2.Index != 2 || t2.Name != "reuses the args" || t2.Server != "echo" || string(t2.Args) != args ||
		t2.Tags == nil || len(t2.Tags) != 0 || len(t2.Expect) != 0 {
		t.Errorf("tool 2 = %+v args %s", t2, t2.Args)
	}
	if !json.Valid(t2.Args) {
		t.Errorf("args are not valid JSON")
	}
}

func TestArgsDefaultToEmptyObject(t *testing.T) {
	s, err := loadBytes("inline.yml", []byte("servers: {a: {command: [x]}}\ntools: [{name: n, server: a, tool: t}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Tools[0].Args); got != "{}" {
		t.Errorf("Args = %s, want {}", got)
	}
	if s.Tools[0].Expect != nil {
		t.Errorf("Expect = %v, want nil", s.Tools[0].Expect)
	}
}

func TestSyntaxErrorPositions(t *testing.T) {
	cases := []struct{ src, want string }{
		{"servers: {a: {command: [x]}}\nfoo: bar: baz\n", "2:9: invalid YAML: mapping values are not allowed in this context (quote a value that contains \": \", or check the indentation)"},
		{"servers:\n\tlocal: {}\n", "2:1: invalid YAML: found character that cannot start any token (YAML does not allow tabs for indentation; use spaces)"},
		{"servers: \"abc\ntools: []\n", "1:10: invalid YAML: found unexpected end of stream (a quote or bracket opened here is never closed)"},
		{"servers: @x\n", "1:10: invalid YAML: found character that cannot start any token"},
		{"servers:\n  a:\n    command: *nope\n", "3:14: invalid YAML: unknown anchor 'nope' referenced"},
		{"servers: {a: {command: [x]}}\n---\ntools: [\n", "3:8: invalid YAML: did not find expected node content"},
	}
	for _, tc := range cases {
		_, err := loadBytes("s.yml", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if got := strings.TrimPrefix(err.Error(), "s.yml:"); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestLoadCRLFAndBOM(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "crlf.yml")
	src := "\ufeffservers:\r\n  a:\r\n    command: [x]\r\ntools:\r\n  - name: n\r\n    server: b\r\n    tool: t\r\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.HasSuffix(err.Error(), `:6:13: /tools/0/server: unknown server "b" (declared servers: a)`) {
		t.Errorf("error = %v", err)
	}
}

// TestLoadInlineErrors covers smaller cases inline: each source must yield
// exactly these errors.
func TestLoadInlineErrors(t *testing.T) {
	const base = "servers: {local: {command: [x]}}\n"
	const tool = "tools: [{name: a, server: local, tool: t, "
	cases := []struct {
		src  string
		want []string
	}{
		{"servers: {local: ./srv --stdio}", []string{
			`1:18: /servers/local: expected a server (an object), found a string ("./srv --stdio") (write command: ["./srv", "--stdio"])`}},
		{"servers: {remote: {url: 'http://x'}, both: {url: 'http://x', command: [x]}}", []string{
			`1:45: /servers/both/url: a server takes only one of "command", "url" or "cassette", found "command" and "url"`}},
		{"servers: {'': {command: [x]}}", []string{`1:11: /servers/: a server name must not be empty`}},
		{"servers: {local: {command: ['', x]}}", []string{
			`1:29: /servers/local/command/0: the executable (the first element of command) must not be empty`}},
		{"servers: {local: {command: [x, 1]}}", []string{
			`1:32: /servers/local/command/1: expected an element of command (a string), found an integer (1) (quote it to make it a string: "1")`}},
		{"servers: {}", []string{
			`1:10: /servers: servers must declare at least one server (for example: servers: {local: {command: ["./my-server"]}})`}},
		{"servers:\n", []string{
			`1:9: /servers: expected the servers block (an object of named servers), found null (for example: servers: {local: {command: ["./my-server"]}})`}},
		{"---\n", []string{`1:1: the suite is empty (a suite needs at least a servers block)`}},
		{base + tool + "expect: [{assert-set: {name: x}}]}]", []string{ // no "missing target" on top
			`2:65: /tools/0/expect/0/assert-set: missing required key "assertions" in an assert-set`}},
		{base + tool + "expect: [{target: x, matcher: contains}]}]", []string{
			`2:73: /tools/0/expect/0/matcher: expected a matcher (an object with exactly one key), found a string ("contains") (for example: matcher: {contains: "hello"})`}},
		{base + tool + "expect: [{target: x, matcher: {a: 1, b: 2, c: 3}}]}]", []string{
			`2:73: /tools/0/expect/0/matcher: a matcher has exactly one key, found 3: "a", "b" and "c" (write one assertion per matcher, or combine them with allOf)`}},
		{base + tool + "timeout_ms: 99999999999999999999}]", []string{
			`2:55: /tools/0/timeout_ms: timeout_ms 99999999999999999999 is out of range`}},
		{base + tool + "timeout_ms: 1.5}]", []string{
			`2:55: /tools/0/timeout_ms: expected timeout_ms (an integer ≥ 1), found a number (1.5)`}},
		{base + tool + "tags: [a, '']}]", []string{
			`2:53: /tools/0/tags/1: expected an element of tags (a non-empty string), found an empty string`}},
		{base + "tools: [{name: a, server: ~, tool: t}]", []string{
			`2:27: /tools/0/server: expected a server name (a string), found null`}},
		// An error inside an anchored test is reported once, at the anchor;
		// the alias only adds what is missing where it is used.
		{base + "tools:\n  - &t {name: a, server: local, tol: t}\n  - *t\n", []string{
			`3:5: /tools/0: missing required key "tool" in a tool test`,
			`3:33: /tools/0/tol: unknown key "tol" in a tool test (did you mean "tool"?)`,
			`4:5: /tools/1: missing required key "tool" in a tool test`}},
	}
	for _, tc := range cases {
		_, err := loadBytes("t.yml", []byte(tc.src))
		var got []string
		for _, e := range asErrors(err) {
			got = append(got, strings.TrimPrefix(e.Error(), "t.yml:"))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got: %s\nwant: %s", tc.src, strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
		}
	}
}

func asErrors(err error) Errors {
	var es Errors
	errors.As(err, &es)
	return es
}

func TestLoadMergeAtTopLevelAndFloatTimeout(t *testing.T) {
	src := "<<: {servers: {a: {command: [x]}}}\ntools: [{name: n, server: a, tool: t, timeout_ms: 2.0, args: {b: !!binary aGk=}}]\n"
	s, err := loadBytes("t.yml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Servers["a"] == nil || s.Tools[0].TimeoutMS != 2 || string(s.Tools[0].Args) != `{"b":"aGk="}` {
		t.Errorf("suite = %+v, tool = %+v", s, s.Tools[0])
	}
}

func TestSyntaxHintForBracketsInFlowMappings(t *testing.T) {
	src := "servers: {s: {command: [x]}}\ntools: [{name: t, server: s, tool: t, expect: [{target: result.content[0].text, matcher: {exact: 1}}]}]\n"
	_, err := loadBytes("f.yml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `quote a value that contains brackets or commas, such as "result.content[0].text"`) {
		t.Errorf("error = %v", err)
	}
}

func TestTargetVersionsDeduplicated(t *testing.T) {
	s, err := LoadWith("testdata/valid/metadata.yml", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2025-06-18", "2025-11-25", "2026-07-28"}; !slices.Equal(s.TargetVersions, want) {
		t.Errorf("TargetVersions = %v, want %v", s.TargetVersions, want)
	}
	if s.P95LatencyMS != 1500 || s.DefaultTimeoutMS != 12000 || !slices.Equal(s.ModelCompatibility, []string{"claude-opus-4-7", "gpt-4o"}) {
		t.Errorf("metadata = %d %d %v", s.P95LatencyMS, s.DefaultTimeoutMS, s.ModelCompatibility)
	}
}
