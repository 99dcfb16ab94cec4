//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/safefile"
)

// loadBounded loads in a goroutine so that a regression (a read that
// blocks on a FIFO) fails the test instead of hanging it.
func loadBounded(t *testing.T, path string, opts Options) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := LoadWith(path, opts)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("loading %s is still blocked", path)
		return nil
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// TestHostileFilesAreRefused gives a FIFO with no writer as the suite, an
// import, a --env-file and the .env beside the suite: each is refused with
// an error that names the file and says what it is, and nothing blocks.
func TestHostileFilesAreRefused(t *testing.T) {
	const suite = "servers:\n  s: {command: [x]}\ntools:\n  - {name: a, server: s, tool: t}\n"
	cases := []struct {
		name     string
		files    map[string]string
		fifo     string // created as a FIFO, relative to the directory
		suite    string
		envFiles []string
		wantFile string // the file the error is located in
		wantMsg  string
	}{
		{name: "suite", fifo: "pipe.yml", suite: "pipe.yml", wantFile: "pipe.yml",
			wantMsg: "cannot read suite file: a named pipe (FIFO), not a regular file"},
		{name: "import", files: map[string]string{"main.yml": "imports: [./pipe.yml]\n" + suite},
			fifo: "pipe.yml", suite: "main.yml", wantFile: "main.yml",
			wantMsg: `cannot import "./pipe.yml": a named pipe (FIFO), not a regular file`},
		{name: "env-file", files: map[string]string{"main.yml": suite}, fifo: "vars.env",
			suite: "main.yml", envFiles: []string{"vars.env"}, wantFile: "vars.env",
			wantMsg: "cannot read the dotenv file: a named pipe (FIFO), not a regular file"},
		{name: ".env beside the suite", files: map[string]string{"main.yml": suite}, fifo: ".env",
			suite: "main.yml", wantFile: ".env",
			wantMsg: "cannot read the dotenv file: a named pipe (FIFO), not a regular file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.files != nil {
				dir = writeFiles(t, c.files)
			}
			mkfifo(t, filepath.Join(dir, c.fifo))
			opts := envOptions(nil)
			for _, f := range c.envFiles {
				opts.EnvFiles = append(opts.EnvFiles, filepath.Join(dir, f))
			}
			err := loadBounded(t, filepath.Join(dir, c.suite), opts)
			if !errors.Is(err, ErrInvalidSuite) || !errors.Is(err, safefile.ErrNotRegular) && c.name != "import" {
				t.Fatalf("err = %v", err)
			}
			es := asErrors(err)
			if len(es) != 1 {
				t.Fatalf("errors = %v", err)
			}
			if es[0].File != filepath.Join(dir, c.wantFile) || !strings.Contains(es[0].Msg, c.wantMsg) {
				t.Errorf("error = %s: %s, want %s: %s", es[0].File, es[0].Msg, c.wantFile, c.wantMsg)
			}
		})
	}
}

// TestDevicesAndHugeSuitesAreRefused: /dev/zero as a suite (which used to
// be refused only after the open) and a sparse file over the 256 MiB
// bound, refused by its size before any read.
func TestDevicesAndHugeSuitesAreRefused(t *testing.T) {
	if err := loadBounded(t, "/dev/zero", Options{}); err == nil || !strings.Contains(err.Error(), "a character device, not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
	path := filepath.Join(t.TempDir(), "huge.yml")
	if err := truncateFile(path, maxFileSize+1); err != nil {
		t.Skip(err)
	}
	err := loadBounded(t, path, Options{})
	if !errors.Is(err, safefile.ErrTooLarge) || !strings.Contains(err.Error(), "exceeds the limit of 256 MiB") {
		t.Errorf("huge suite: %v", err)
	}
}

// truncateFile makes a sparse file of size bytes (no block is written).
func truncateFile(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Truncate(size)
}
