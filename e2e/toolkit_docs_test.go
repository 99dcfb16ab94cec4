package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/shlex"
)

// TestToolkitDocsCommands runs every `bin/mcptest` line of the sh blocks
// in docs/toolkit.md, in order, from the build folder (where
// ./bin/mcptest-demo-server is), and checks the exit code each line notes
// ("# exit N", else 0).
func TestToolkitDocsCommands(t *testing.T) {
	work := filepath.Dir(binDir)
	if err := os.MkdirAll(filepath.Join(work, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(filepath.Join(work, "out")) })
	examples, err := os.ReadDir(filepath.Join(root, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	// The coverage examples name suites under examples/.
	if err := os.MkdirAll(filepath.Join(work, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range examples {
		if strings.HasSuffix(e.Name(), ".yml") {
			raw, _ := os.ReadFile(filepath.Join(root, "examples", e.Name()))
			_ = os.WriteFile(filepath.Join(work, "examples", e.Name()), raw, 0o644)
		}
	}
	n := 0
	for _, b := range docBlocks(t) {
		if b.file != "toolkit.md" || b.lang != "sh" {
			continue
		}
		for _, line := range strings.Split(b.text, "\n") {
			cmd, comment, _ := strings.Cut(line, "#")
			cmd = strings.TrimSpace(cmd)
			if !strings.HasPrefix(cmd, "bin/mcptest ") {
				continue
			}
			want := 0
			if c, ok := strings.CutPrefix(strings.TrimSpace(comment), "exit "); ok {
				want, _ = strconv.Atoi(c)
			}
			argv, err := shlex.Split(cmd)
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
			if r := mcptestIn(t, work, nil, argv[1:]...); r.code != want {
				t.Errorf("toolkit.md:%d: %s: want exit %d:\n%s", b.line, cmd, want, r)
			}
			n++
		}
	}
	if n < 10 {
		t.Fatalf("only %d commands run; did the page move?", n)
	}
}
