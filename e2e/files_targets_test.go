package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesTargets: the npm filesystem server writes into its fixture
// copy and files["path"] targets judge what it wrote: existence, text,
// unchanged since the test began; a wrong expectation fails the run.
func TestFilesTargets(t *testing.T) {
	entry := npmServer(t, "server-filesystem")
	dir := t.TempDir()
	fx := filepath.Join(dir, "fx")
	if err := os.MkdirAll(fx, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFileIn(t, fx, "keep.txt", "keep me\n")
	writeFileIn(t, fx, "edit.txt", "old\n")
	suite := func(extra string) string {
		return writeFileIn(t, dir, "files.yml", `
servers:
  fs:
    command: ["node", "`+entry+`", "${fixture}"]
    fixture: fx
    restart_policy: per_test
tools:
  - name: write a new file
    server: fs
    tool: write_file
    args: {path: "${fixture}/new.txt", content: "hello from the server"}
    expect:
      - {target: 'files["new.txt"].exists', matcher: {exact: true}}
      - {target: 'files["new.txt"].text', matcher: {exact: "hello from the server"}}
      - {target: 'files["new.txt"].unchanged', matcher: {exact: false}}
      - {target: 'files["keep.txt"].unchanged', matcher: {exact: true}}
      - {target: 'files["keep.txt"].text', matcher: {exact: "keep me\n"}}
      - {target: 'files["never.txt"].exists', matcher: {exact: false}}
  - name: overwrite a file
    server: fs
    tool: write_file
    args: {path: "${fixture}/edit.txt", content: "new"}
    expect:
      - {target: 'files["edit.txt"].unchanged', matcher: {exact: false}}
      - {target: 'files["edit.txt"].text', matcher: {exact: "new"}}
`+extra)
	}
	if r := mcptest(t, "run", suite("")); r.code != 0 {
		t.Fatalf("the files targets should pass:\n%s", r)
	}
	r := mcptest(t, "run", suite(`  - name: read only
    server: fs
    tool: read_text_file
    args: {path: "${fixture}/keep.txt"}
    expect:
      - {target: 'files["keep.txt"].unchanged', matcher: {exact: false}}
`))
	if r.code != 1 {
		t.Fatalf("a file that did not change is not changed; want exit 1:\n%s", r)
	}
	mustContain(t, "output", r.stdout, `files["keep.txt"].unchanged`)
	if strings.Count(r.stdout, "PASS") != 2 {
		t.Errorf("the two right tests should still pass:\n%s", r.stdout)
	}
}

// TestFilesTargetsNeedFixture: a files["path"] target on a test whose
// server has no fixture copy, an escaping path or an unknown field is a
// located load error.
func TestFilesTargetsNeedFixture(t *testing.T) {
	p := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: no copy
    server: demo
    tool: echo
    args: {message: hi}
    expect:
      - {target: 'files["out.txt"].exists', matcher: {exact: true}}
`)
	r := mcptest(t, "run", p)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	mustContain(t, "errors", r.stderr, "suite.yml:11:", "no fixture:")
}
