package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImportsMergeOrder checks the merge rules: imports in order, an
// import's own imports before it, a diamond merged once, later files
// overriding earlier ones by name, and the suite overriding everything.
func TestImportsMergeOrder(t *testing.T) {
	s, err := LoadWith("testdata/valid/imports_main.yml", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	wantImports := []string{abs("testdata/valid/shared/base.yml"), abs("testdata/valid/shared/servers.yml"), abs("testdata/valid/shared/variables.yml")}
	if !slices.Equal(s.Imports, wantImports) {
		t.Errorf("Imports = %v, want %v", s.Imports, wantImports)
	}
	if !slices.Equal(s.ServerOrder, []string{"shared_fs", "base_only"}) {
		t.Errorf("ServerOrder = %v", s.ServerOrder)
	}
	if got := s.Servers["shared_fs"]; got.Command[0] != "./fs-server" || got.Pos.File != "testdata/valid/shared/servers.yml" {
		t.Errorf("shared_fs = %+v (servers.yml should override base.yml)", got)
	}
	if len(s.Tools) != 2 || s.Tools[0].Name != "imported test" || s.Tools[1].Name != "uses an imported server" {
		t.Fatalf("tools = %v", s.Tools)
	}
	if s.Tools[0].Index != 0 || s.Tools[1].Index != 1 {
		t.Errorf("indices = %d, %d", s.Tools[0].Index, s.Tools[1].Index)
	}
	// The suite's own greeting beats base.yml's, and variables from an
	// import are visible in the suite.
	if string(s.Tools[1].Args) != `{"path":"/tmp/scratch","note":"hi from main"}` {
		t.Errorf("args = %s", s.Tools[1].Args)
	}
	if s.Tools[0].Pos.File != "testdata/valid/shared/servers.yml" || s.Tools[0].Pos.Pointer != "/tools/0" {
		t.Errorf("imported test pos = %+v", s.Tools[0].Pos)
	}
}

// TestImportErrorsAreLocatedInTheirFile checks that an error in an
// imported file names that file, and that references may cross files.
func TestImportErrorsAreLocatedInTheirFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.yml":        "imports: [./lib/servers.yml]\ntools:\n  - {name: a, server: lib_srv, tool: t}\n  - {name: b, server: nope, tool: t}\n",
		"lib/servers.yml": "servers:\n  lib_srv: {command: [x], enviroment: {}}\n",
	})
	_, err := LoadWith(filepath.Join(dir, "main.yml"), envOptions(nil))
	got := asErrors(err)
	if len(got) != 2 {
		t.Fatalf("errors = %v", err)
	}
	if got[0].File != filepath.Join(dir, "main.yml") || !strings.Contains(got[0].Msg, `unknown server "nope"`) {
		t.Errorf("first error = %v", got[0])
	}
	if got[1].File != filepath.Join(dir, "lib/servers.yml") || got[1].Line != 2 || !strings.Contains(got[1].Msg, `unknown key "enviroment"`) {
		t.Errorf("second error = %v", got[1])
	}
}
