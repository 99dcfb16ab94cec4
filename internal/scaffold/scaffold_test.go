package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sdkDir is this checkout's SDK module.
func sdkDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "sdk"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestWriteEachKind(t *testing.T) {
	for _, kind := range Kinds {
		t.Run(kind, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "acme-"+kind)
			files, err := Write(Options{Kind: kind, Name: "acme-" + kind, Dir: dir, SDKDir: sdkDir(t)})
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != 6 {
				t.Fatalf("wrote %v, want go.mod, main.go, main_test.go, Makefile, .gitignore, go.sum", files)
			}
			mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
			for _, want := range []string{"module acme-" + kind, "require github.com/mcptest/mcptest/sdk v0.1.0", "replace github.com/mcptest/mcptest/sdk => " + filepath.ToSlash(sdkDir(t))} {
				if !strings.Contains(string(mod), want) {
					t.Errorf("go.mod lacks %q:\n%s", want, mod)
				}
			}
			main, _ := os.ReadFile(filepath.Join(dir, "main.go"))
			if !strings.Contains(string(main), `"acme-`+kind+`"`) || strings.Contains(string(main), "{%") {
				t.Errorf("main.go does not name the plugin or kept a template action:\n%s", main)
			}
		})
	}
}

func TestWriteWithoutSDKDirRequiresTheVersion(t *testing.T) {
	dir := t.TempDir()
	if _, err := Write(Options{Kind: "matcher", Name: "acme", Dir: dir, Module: "example.com/acme", SDKVersion: "v0.2.0"}); err != nil {
		t.Fatal(err)
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if strings.Contains(string(mod), "replace") || !strings.Contains(string(mod), "module example.com/acme\n") || !strings.Contains(string(mod), "sdk v0.2.0") {
		t.Fatalf("go.mod:\n%s", mod)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("go.sum written without --sdk: %v", err)
	}
}

func TestWriteRefuses(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		o    Options
		want error
		text string
	}{
		{"kind", Options{Kind: "judge", Name: "acme", Dir: t.TempDir()}, ErrBadOptions, `kind "judge"`},
		{"name", Options{Kind: "matcher", Name: "Acme_X", Dir: t.TempDir()}, ErrBadOptions, `name "Acme_X"`},
		{"module", Options{Kind: "matcher", Name: "acme", Module: "bad module", Dir: t.TempDir()}, ErrBadOptions, `module path "bad module"`},
		{"sdk", Options{Kind: "matcher", Name: "acme", SDKDir: t.TempDir(), Dir: t.TempDir()}, ErrBadOptions, "not the sdk/ folder"},
		{"not empty", Options{Kind: "matcher", Name: "acme", Dir: full}, ErrDirNotEmpty, full},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Write(c.o)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("err = %v, want %v mentioning %q", err, c.want, c.text)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(full, "keep.txt")); string(b) != "mine" {
		t.Fatal("an existing file was touched")
	}
}
