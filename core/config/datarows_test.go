package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRowFiles writes files into a fresh folder and returns the path of
// the first one named suite.yml.
func writeRowFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "suite.yml")
}

const rowsHead = `servers:
  s: {command: ["x"]}
`

func TestDataRowsExpandInline(t *testing.T) {
	path := writeRowFiles(t, map[string]string{"suite.yml": rowsHead + `
tools:
  - name: adds ${data.a} and ${data.b}
    server: s
    tool: add
    data:
      - {name: small, a: 1, b: 2, sum: 3, opts: {deep: [1, 2]}}
      - {a: 10, b: 20, sum: 30, opts: {deep: []}}
    args: {a: "${data.a}", b: "${data.b}", label: "a=${data.a} opts=${data.opts}", opts: "${data.opts}"}
    expect:
      - {target: result.structuredContent.sum, matcher: {exact: "${data.sum}"}}
resources:
  - name: reads
    server: s
    uri: "file:///${data.f}"
    data: [{f: a.txt}, {f: b.txt}]
prompts:
  - name: greets
    server: s
    prompt: greet
    args: {who: "${data.who}"}
    data: [{name: ann, who: Ann}]
`})
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 2 || len(s.Resources) != 2 || len(s.Prompts) != 1 {
		t.Fatalf("tests: %d tools, %d resources, %d prompts", len(s.Tools), len(s.Resources), len(s.Prompts))
	}
	t0, t1 := s.Tools[0], s.Tools[1]
	if t0.Name != "adds 1 and 2 [small]" || t1.Name != "adds 10 and 20 [1]" {
		t.Errorf("names %q, %q", t0.Name, t1.Name)
	}
	if string(t0.Args) != `{"a":1,"b":2,"label":"a=1 opts={\"deep\":[1,2]}","opts":{"deep":[1,2]}}` {
		t.Errorf("args %s", t0.Args)
	}
	if string(t0.Expect[0].Matcher.Arg) != "3" || string(t1.Expect[0].Matcher.Arg) != "30" {
		t.Errorf("expectations %s, %s", t0.Expect[0].Matcher.Arg, t1.Expect[0].Matcher.Arg)
	}
	if r := t0.Row; r == nil || r.Index != 0 || r.Suffix != "small" || r.Template != "adds ${data.a} and ${data.b}" {
		t.Errorf("row %+v", r)
	}
	if s.Resources[1].URI != "file:///b.txt" || s.Resources[1].Name != "reads [1]" {
		t.Errorf("resource %+v", s.Resources[1])
	}
	if s.Prompts[0].Name != "greets [ann]" || string(s.Prompts[0].Args) != `{"who":"Ann"}` {
		t.Errorf("prompt %q %s", s.Prompts[0].Name, s.Prompts[0].Args)
	}
}

func TestDataRowsFromFiles(t *testing.T) {
	for _, tc := range []struct{ file, text string }{
		{"rows.csv", "name,msg\nfirst,hello\nsecond,\"a, b\"\n"},
		{"rows.csv", "\xef\xbb\xbfname,msg\r\nfirst,hello\r\nsecond,\"a, b\"\r\n"},
		{"rows.jsonl", "{\"name\": \"first\", \"msg\": \"hello\"}\n\n{\"name\": \"second\", \"msg\": \"a, b\"}\n"},
		{"rows.yaml", "- {name: first, msg: hello}\n- name: second\n  msg: a, b\n"},
	} {
		path := writeRowFiles(t, map[string]string{tc.file: tc.text, "suite.yml": rowsHead + `
tools:
  - name: echoes
    server: s
    tool: echo
    data: {file: ` + tc.file + `}
    args: {message: "${data.msg}"}
`})
		s, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if len(s.Tools) != 2 || s.Tools[1].Name != "echoes [second]" || string(s.Tools[1].Args) != `{"message":"a, b"}` {
			t.Errorf("%s: %d tools, %+v", tc.file, len(s.Tools), s.Tools)
		}
	}
}

func TestDataRowErrorsAreLocated(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"missing field", map[string]string{"suite.yml": rowsHead + `
tools:
  - name: t
    server: s
    tool: echo
    data: [{a: 1}, {name: two, b: 2}]
    args: {message: "${data.a}"}
`}, []string{`suite.yml:9:21: /tools/0/args/message: data row 1 ("two") has no field "a" (referenced by ${data.a}) (the row has: b, name)`}},
		{"no data", map[string]string{"suite.yml": rowsHead + `
tools:
  - {name: t, server: s, tool: echo, args: {message: "${data.a}"}}
`}, []string{`suite.yml:5:54: /tools/0/args/message: ${data.a} refers to a data row, but the test has no data`}},
		{"in defaultTest", map[string]string{"suite.yml": rowsHead + `
defaultTest:
  expect:
    - {target: result.isError, matcher: {exact: "${data.err}"}}
tools:
  - {name: t, server: s, tool: echo, data: [{err: false}]}
`}, []string{`/defaultTest/expect/0/matcher/exact: ${data.err} refers to a data row, but defaultTest is merged into tests after their rows are substituted`}},
		{"capture", map[string]string{"suite.yml": rowsHead + `
tools:
  - {name: t, server: s, tool: echo, data: [{a: 1}, {a: 2}], capture: {x: result}}
`}, []string{`/tools/0/capture: a test with data rows cannot capture`}},
		{"bad csv", map[string]string{"rows.csv": "a,b\n1,2\n3\n", "suite.yml": rowsHead + `
tools:
  - {name: t, server: s, tool: echo, data: {file: rows.csv}}
`}, []string{"rows.csv:3", "wrong number of fields"}},
		{"missing file", map[string]string{"suite.yml": rowsHead + `
tools:
  - {name: t, server: s, tool: echo, data: {file: nope.jsonl}}
`}, []string{"suite.yml:5:51: /tools/0/data/file: cannot read the rows file nope.jsonl"}},
		{"not objects", map[string]string{"suite.yml": rowsHead + `
tools:
  - {name: t, server: s, tool: echo, data: [1]}
`}, []string{"/tools/0/data/0: expected a data row (an object), found"}},
		{"bad jsonl", map[string]string{"rows.jsonl": "{\"a\": 1}\n[2]\n", "suite.yml": rowsHead + `
prompts:
  - {name: t, server: s, prompt: p, data: {file: rows.jsonl}}
`}, []string{"rows.jsonl:2", "expected a JSON object"}},
	} {
		_, err := Load(writeRowFiles(t, tc.files))
		if err == nil {
			t.Errorf("%s: loaded", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error lacks %q:\n%v", tc.name, w, err)
			}
		}
	}
}
