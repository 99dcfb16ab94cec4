package vars

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDotenvFiles: the .env beside the suite comes first when it exists,
// then the --env-file files in their order.
func TestDotenvFiles(t *testing.T) {
	dir := t.TempDir()
	extra := []string{"/a.env", "/b.env"}
	if got := DotenvFiles(dir, extra); !slices.Equal(got, extra) {
		t.Errorf("without .env: %q", got)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	want := append([]string{filepath.Join(dir, ".env")}, extra...)
	if got := DotenvFiles(dir, extra); !slices.Equal(got, want) {
		t.Errorf("with .env: %q, want %q", got, want)
	}
}

// TestReadDotenv: later files override earlier ones; a file that cannot be
// read or parsed is reported with its name and skipped, and the files
// after it are still read.
func TestReadDotenv(t *testing.T) {
	files := map[string]string{
		"one": "A=1\nB=1\n",
		"bad": "X='unterminated\n",
		"two": "B=2\nC=2\n",
	}
	read := func(name string) ([]byte, error) {
		if data, ok := files[name]; ok {
			return []byte(data), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	got, errs := ReadDotenv([]string{"one", "missing", "bad", "two"}, read)
	if got["A"] != "1" || got["B"] != "2" || got["C"] != "2" || len(got) != 3 {
		t.Errorf("values = %v", got)
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want 2", errs)
	}
	if e := errs[0]; e.File != "missing" || e.Msg != "cannot read the dotenv file: file does not exist" || !errors.Is(e, fs.ErrNotExist) {
		t.Errorf("read error = %q (%v)", e.Msg, e.Err)
	}
	if e := errs[1]; e.File != "bad" || !strings.HasPrefix(e.Msg, "invalid dotenv file: ") || e.Error() != "bad: "+e.Msg {
		t.Errorf("parse error = %q", e.Error())
	}
}
