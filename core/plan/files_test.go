package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
)

// files["path"] targets: an escaping path, an absolute one and an unknown
// field are located errors; good paths land in Test.Files once each.
func TestFileTargets(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "fx"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.yml")
	text := `servers:
  s:
    command: ["x"]
    fixture: fx
tools:
  - name: w
    server: s
    tool: write
    expect:
      - {target: 'files["a.txt"].exists', matcher: {exact: true}}
      - {target: 'files["a.txt"].text', matcher: {exact: "x"}}
      - {target: 'files["../up.txt"].exists', matcher: {exact: true}}
      - {target: 'files["/etc/passwd"].text', matcher: {exact: "x"}}
      - {target: 'files["b.txt"].size', matcher: {exact: 1}}
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{reg: plugin.NewRegistry(nil), sel: &Selection{}, plan: &Plan{}, used: map[*plugin.Found]bool{}}
	tt := &Test{Kind: KindTool, Tool: s.Tools[0], Server: s.Servers["s"], Options: &s.Tools[0].TestOptions}
	b.fileTargets(tt, tt.Options.Expect)
	if got := strings.Join(tt.Files, ","); got != "a.txt" {
		t.Errorf("files = %q, want a.txt", got)
	}
	msgs := b.errs.Error()
	for _, want := range []string{"s.yml:12:", `files["../up.txt"]: the path must be relative`, "s.yml:13:", `files["/etc/passwd"]`, "s.yml:14:", `unknown field "size"`} {
		if !strings.Contains(msgs, want) {
			t.Errorf("errors lack %q:\n%s", want, msgs)
		}
	}
}
