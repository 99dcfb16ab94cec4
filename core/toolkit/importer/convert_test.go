package importer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConvertToolAndDedup(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.yaml", "name: a\nserver: {command: srv, args: [x]}\nassert:\n  tool: echo\n  args: {m: hi}\n  expect: {not_error: true, contains: [\"h\\\"i\"]}\ntimeout: 2s\n")
	write(t, dir, "b.yaml", "name: b\nserver: {command: srv, args: [x]}\nassert:\n  tool: echo\n  expect: {is_error: true}\n")
	write(t, dir, "c.yaml", "name: c\nserver: {command: srv, args: [x]}\nassert:\n  tool: echo\n  expect:\n    frobnicate: true\n")
	write(t, dir, "d.yaml", "name: d\ntrace: []\ntrajectory:\n  - type: order\n")
	res, err := Convert([]string{dir}, Options{Out: filepath.Join(dir, "out.yml")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 4 || res.Converted != 2 || len(res.Suite.Servers) != 1 {
		t.Fatalf("files %d converted %d servers %d; issues %v", res.Files, res.Converted, len(res.Suite.Servers), res.Issues)
	}
	a := res.Suite.Tools[0]
	if a.TimeoutMS != 2000 || a.Expect[0].Target != "result.isError" || !strings.Contains(a.Expect[1].Matcher["cel"].(string), `.contains("h\"i")`) {
		t.Errorf("test a = %+v", a)
	}
	var got []string
	for _, is := range res.Issues {
		got = append(got, filepath.Base(is.File)+":"+strconv.Itoa(is.Line))
	}
	if strings.Join(got, ",") != "c.yaml:6,d.yaml:4" {
		t.Errorf("issues located at %v; want c.yaml:6 (the expect block) and d.yaml:4 (an order check without tools): %v", got, res.Issues)
	}
}

func TestSetupBecomesComposition(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "s.yaml", "name: s\nserver: {command: srv}\nsetup:\n  - tool: open\n    capture: {sid: \"$.session.id\"}\nassert:\n  tool: close\n  args: {id: \"{{sid}}\"}\n  expect: {not_error: true}\n")
	res, err := Convert([]string{dir}, Options{})
	if err != nil || len(res.Suite.Compositions) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	c := res.Suite.Compositions[0]
	if c.Nodes[1].Args["id"] != "${setup_1.session.id}" || c.Nodes[1].Needs[0] != "setup_1" {
		t.Errorf("composition = %+v", c)
	}
}

func TestCompletionAndReadForms(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "c.yaml", "name: c\nserver: {command: srv}\nassert_completion:\n  ref: {type: ref/prompt, name: p}\n  argument: {name: style, value: f}\n  expect: {contains: [formal]}\n")
	write(t, dir, "r.yaml", "name: r\nserver: {command: srv}\nassert_resources:\n  read: \"demo://info\"\n  expect: {not_empty: true}\n")
	write(t, dir, "x.yaml", "name: x\nserver: {command: srv}\nassert_completion:\n  ref: {type: ref/other}\n")
	res, err := Convert([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Suite.Completions) != 1 || res.Suite.Completions[0].Ref["prompt"] != "p" || res.Suite.Completions[0].Argument["value"] != "f" {
		t.Errorf("completions = %+v", res.Suite.Completions)
	}
	if got := res.Suite.Completions[0].Expect[0].Matcher["cel"]; got != `value.join(' ').contains("formal")` {
		t.Errorf("completion check = %v", got)
	}
	if len(res.Suite.Resources) != 1 || res.Suite.Resources[0].URI != "demo://info" {
		t.Errorf("resources = %+v", res.Suite.Resources)
	}
	if len(res.Issues) != 1 || filepath.Base(res.Issues[0].File) != "x.yaml" || res.Issues[0].Line != 4 {
		t.Errorf("issues = %v", res.Issues)
	}
}
