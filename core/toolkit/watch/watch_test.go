package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDepsAndAffected(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "mock.yml")
	prog := filepath.Join(dir, "server")
	for _, f := range []string{manifest, prog} {
		if err := os.WriteFile(f, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	suite := filepath.Join(dir, "s.yml")
	if err := os.WriteFile(suite, []byte("servers:\n  a:\n    command: [\""+prog+"\", \"--flag\", \""+manifest+"\", \"not-a-file\"]\ntools:\n  - {name: t, server: a, tool: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deps := Deps(suite)
	for _, want := range []string{suite, prog, manifest} {
		if !slices.Contains(deps, want) {
			t.Errorf("deps %v lack %s", deps, want)
		}
	}
	if len(deps) != 3 {
		t.Errorf("deps = %v; want the suite, the program and the manifest only", deps)
	}
	broken := filepath.Join(dir, "broken.yml")
	if err := os.WriteFile(broken, []byte("servers: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := Deps(broken); len(d) != 1 || d[0] != broken {
		t.Errorf("a suite that does not load depends on itself: %v", d)
	}
	by := map[string][]string{"s.yml": deps, "broken.yml": {broken}}
	if got := Affected(by, map[string]bool{manifest: true}, []string{"broken.yml", "s.yml"}); !slices.Equal(got, []string{"s.yml"}) {
		t.Errorf("affected = %v", got)
	}
	if got := Affected(by, map[string]bool{filepath.Join(dir, "other"): true}, []string{"broken.yml", "s.yml"}); len(got) != 0 {
		t.Errorf("an unrelated file affects %v", got)
	}
}
