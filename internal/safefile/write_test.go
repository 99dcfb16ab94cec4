package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAtomicReplacesWholeAndPrivately(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "entry.json")
	if err := WriteAtomic(path, []byte("first"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("second"), 0o700); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "second" {
		t.Fatalf("read %q, %v; want second", got, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", di.Mode().Perm())
	}
	left, _ := os.ReadDir(filepath.Dir(path))
	if len(left) != 1 {
		t.Errorf("folder holds %d entries, want only the file (no temporary left)", len(left))
	}
}

func TestWriteAtomicLeavesNoTemporaryOnFailure(t *testing.T) {
	dir := t.TempDir()
	// A folder where the file should go: the rename fails.
	path := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(path, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("data"), 0o700); err == nil {
		t.Fatal("WriteAtomic over a non-empty folder succeeded")
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 {
		t.Errorf("folder holds %d entries after a failed write, want 1 (no temporary left)", len(left))
	}
}
