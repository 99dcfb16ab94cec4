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

// invalidCases lists every file of testdata/invalid with the exact errors
// Load must report, in order ("line:col: pointer: message (hint)", without
// the file name). loaderOnly marks files whose problem the JSON Schema
// cannot see (a cross-reference); the schema test expects every other
// file to be rejected by the schema too.
var invalidCases = []struct {
	file       string
	want       []string
	loaderOnly bool
}{
	{file: "unknown_key.yml", want: []string{
		`4:5: /servers/local/cmd: unknown key "cmd" in a server (valid keys here: command, env)`,
		`5:1: /varables: unknown key "varables" in the suite (did you mean "variables"?)`,
		`11:5: /tools/0/expects: unknown key "expects" in a tool test (did you mean "expect"?)`,
		`17:9: /tools/0/expect/0/mesage: unknown key "mesage" in an assertion (did you mean "message"?)`,
	}},
	{file: "missing_servers.yml", want: []string{
		`2:1: missing required key "servers" in the suite`,
	}},
	{file: "missing_fields.yml", want: []string{
		`3:5: /servers/local: missing required key "command" in a server (url: and cassette: servers are not supported yet by this build)`,
		`7:5: /tools/0: missing required key "server" in a tool test`,
		`7:5: /tools/0: missing required key "tool" in a tool test`,
		`12:9: /tools/1/expect/0: missing required key "matcher" in an assertion`,
	}},
	{file: "wrong_type.yml", want: []string{
		`3:14: /servers/local/command: expected command (an array of strings), found a string ("./server --verbose") (write it as an array: ["./server", "--verbose"])`,
		`5:13: /servers/local/env/PORT: expected the value of PORT (a string), found an integer (8080) (quote it to make it a string: "8080")`,
		`7:14: /servers/empty/command: expected command (an array of strings) with at least one element, found an empty array (the first element is the executable to start)`,
		`9:11: /tools/0/name: expected the test name (a string), found an integer (42) (quote it to make it a string: "42")`,
		`12:11: /tools/0/args: expected args (an object of tool arguments), found an array`,
		`13:17: /tools/0/timeout_ms: expected timeout_ms (an integer ≥ 1), found a string ("5000")`,
		`14:11: /tools/0/tags: expected tags (an array of strings), found a string ("smoke")`,
		`18:17: /tools/1/timeout_ms: expected timeout_ms (an integer ≥ 1), found an integer (0)`,
		`20:7: /tools/1/expect: expected expect (an array of assertions), found an object (start each assertion with "- ")`,
		`21:5: /tools/2: expected a tool test (an object), found a string ("not a test")`,
	}},
	{file: "bad_server_ref.yml", loaderOnly: true, want: []string{
		`8:13: /tools/0/server: unknown server "locl" (did you mean "local"?)`,
		`11:13: /tools/1/server: unknown server "production" (declared servers: local, remote)`,
	}},
	{file: "matcher_zero_keys.yml", want: []string{
		`10:18: /tools/0/expect/0/matcher: a matcher needs exactly one key, found none (for example: matcher: {contains: "hello"})`,
	}},
	{file: "matcher_two_keys.yml", want: []string{
		`11:11: /tools/0/expect/0/matcher: a matcher has exactly one key, found 2: "exact" and "regex" (write one assertion per matcher, or combine them with allOf)`,
	}},
	{file: "duplicate_key.yml", want: []string{
		`8:5: /tools/0/tool: duplicate key "tool" (first defined at line 7)`,
		`11:7: /tools/0/args/path: duplicate key "path" (first defined at line 10)`,
	}},
	{file: "syntax_error.yml", want: []string{
		`7:4: invalid YAML: did not find expected '-' indicator (check the indentation of this line)`,
	}},
	{file: "several_errors.yml", want: []string{
		`5:13: /tools/0/server: unknown server "lcoal" (did you mean "local"?)`,
		`9:18: /tools/0/expect/0/matcher: a matcher needs exactly one key, found none (for example: matcher: {contains: "hello"})`,
		`10:5: /tools/1: missing required key "tool" in a tool test`,
		`12:5: /tools/1/tol: unknown key "tol" in a tool test (did you mean "tool"?)`,
		`13:17: /tools/1/timeout_ms: expected timeout_ms (an integer ≥ 1), found an integer (-5)`,
		`15:23: /performance/default_timeout_ms: expected default_timeout_ms (an integer ≥ 1), found a string ("soon")`,
		`19:5: /servers/local/enviroment: unknown key "enviroment" in a server (did you mean "env"?)`,
	}},
	{file: "not_supported.yml", want: []string{
		`1:1: /variables: "variables" is not supported yet by this build (supported here: servers, tools, performance)`,
		`7:5: /servers/remote/url: "url" is not supported yet by this build (supported here: command, env)`,
		`9:3: /performance/p95_latency_ms: "p95_latency_ms" is not supported yet by this build (supported here: default_timeout_ms)`,
		`14:5: /tools/0/transform: "transform" is not supported yet by this build (supported here: name, server, tool, args, expect, timeout_ms, tags)`,
		`16:7: /tools/0/expect: the long form of expect (an object with assertions:) is not supported yet by this build (write expect as an array of assertions)`,
	}},
	{file: "empty.yml", want: []string{
		`1:1: the suite is empty (a suite needs at least a servers block)`,
	}},
	{file: "not_an_object.yml", want: []string{
		`1:1: expected the suite (an object), found an array`,
	}},
	{file: "second_document.yml", want: []string{
		`4:1: a suite file holds one YAML document, found a second one (remove the --- separator or split the file)`,
	}},
	{file: "bad_args.yml", want: []string{
		`9:7: /tools/0/args: object keys must be strings, found an integer (1) (quote the key: "1")`,
		`10:14: /tools/0/args/ratio: .inf has no JSON form`,
		`11:13: /tools/0/args/flag: invalid boolean "maybe" (use true or false)`,
		`12:13: /tools/0/args/when: unsupported YAML tag !custom (only the core tags (!!str, !!int, !!float, !!bool, !!null, !!binary, !!timestamp) have a JSON form)`,
	}},
}

func TestLoadInvalid(t *testing.T) {
	for _, tc := range invalidCases {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "invalid", tc.file)
			s, err := Load(path)
			if err == nil {
				t.Fatalf("Load(%s) succeeded, want errors", path)
			}
			if s != nil {
				t.Errorf("Load returned a suite along with errors")
			}
			if !errors.Is(err, ErrInvalidSuite) {
				t.Errorf("errors.Is(err, ErrInvalidSuite) = false")
			}
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error is %T, want Errors", err)
			}
			var got []string
			for _, e := range errs {
				if e.File != path {
					t.Errorf("error file = %q, want %q", e.File, path)
				}
				got = append(got, strings.TrimPrefix(e.Error(), path+":"))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors of %s:\n got: %s\nwant: %s", path,
					strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
			}
			if err.Error() != errs.Error() || !strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

// TestInvalidCasesCoverTestdata keeps the table and the directory in step.
func TestInvalidCasesCoverTestdata(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.yml"))
	var listed []string
	for _, tc := range invalidCases {
		listed = append(listed, tc.file)
	}
	for _, f := range files {
		if !slices.Contains(listed, filepath.Base(f)) {
			t.Errorf("%s has no entry in invalidCases", f)
		}
	}
}

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
		{"servers: {remote: {url: 'http://x'}}", []string{ // no "missing command" on top
			`1:20: /servers/remote/url: "url" is not supported yet by this build (supported here: command, env)`}},
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
			`2:53: /tools/0/expect/0/assert-set: "assert-set" is not supported yet by this build (supported here: target, matcher, message)`}},
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
