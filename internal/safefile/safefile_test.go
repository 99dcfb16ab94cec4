//go:build unix

package safefile

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readBounded runs ReadFile in a goroutine so that a regression (a read
// that blocks on a FIFO) fails the test instead of hanging it.
func readBounded(t *testing.T, path string, limit int64) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := ReadFile(path, limit)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("ReadFile(%s) is still blocked", path)
		return nil, nil
	}
}

func TestReadFileRefusesAFIFOWithoutWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.yml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := readBounded(t, path, 1<<20)
	if !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v, want ErrNotRegular", err)
	}
	for _, want := range []string{path, "named pipe (FIFO)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestReadFileRefusesDevices(t *testing.T) {
	for _, dev := range []string{"/dev/zero", "/dev/null"} {
		if _, err := os.Stat(dev); err != nil {
			t.Skipf("%s: %v", dev, err)
		}
		_, err := readBounded(t, dev, 1<<20)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), "character device") {
			t.Errorf("%s: err = %v, want a character device refused", dev, err)
		}
	}
}

func TestReadFileRefusesASocket(t *testing.T) {
	dir, err := os.MkdirTemp("", "sf") // short: socket paths are limited to ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	_, err = readBounded(t, path, 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a socket") {
		t.Fatalf("err = %v, want a socket refused", err)
	}
}

func TestReadFileRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(dir, 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("err = %v, want a directory refused", err)
	}
}

// TestReadFileRefusesASparseGiantBySize gives a 3 GB sparse file (no block
// written) with a 1 MiB limit: the size from fstat refuses it, so the test
// neither reads 3 GB nor allocates it.
func TestReadFileRefusesASparseGiantBySize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Skipf("truncate: %v", err)
	}
	f.Close()
	data, err := readBounded(t, path, 1<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || data != nil {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if tl.Size != 3<<30 || tl.Limit != 1<<20 {
		t.Errorf("TooLargeError = %+v", tl)
	}
	if !strings.Contains(err.Error(), "3 GiB") || !strings.Contains(err.Error(), "1 MiB") || !strings.Contains(err.Error(), path) {
		t.Errorf("message %q should name the path and both sizes", err)
	}
}

func TestReadFileLimitIsInclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := ReadFile(path, 10)
	if err != nil || string(data) != "0123456789" {
		t.Fatalf("ReadFile at the limit = %q, %v", data, err)
	}
	if _, err := ReadFile(path, 9); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("one byte over: err = %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: err = %v", err)
	}
}

// TestLimitedReaderStopsAFileThatGrows appends to a file after it was
// opened (and its size checked): the reader must still stop at the limit.
func TestLimitedReaderStopsAFileThatGrows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grows")
	if err := os.WriteFile(path, []byte("small"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := OpenLimited(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v after %d bytes, want ErrTooLarge", err, n)
	}
	if n > 101 {
		t.Errorf("read %d bytes past a limit of 100", n)
	}
}

// TestOpenFollowsSymlinksToRegularFiles: a symbolic link to a suite is
// fine, one to a FIFO is not.
func TestOpenFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "suite.yml")
	os.WriteFile(file, []byte("x: 1\n"), 0o600)
	link := filepath.Join(dir, "link.yml")
	if err := os.Symlink(file, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if data, err := ReadFile(link, 100); err != nil || string(data) != "x: 1\n" {
		t.Fatalf("via symlink: %q, %v", data, err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	plink := filepath.Join(dir, "plink.yml")
	os.Symlink(fifo, plink)
	if _, err := readBounded(t, plink, 100); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("symlink to a FIFO: err = %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 256 << 20: "256 MiB", 3 << 30: "3 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
