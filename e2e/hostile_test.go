//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// These tests give mcptest files that would block or exhaust a naive
// reader: FIFOs with no writer (os.ReadFile waits for one for good) and a
// sparse 3 GB report. Each must exit 2 with an error naming the path and
// what it is; mcptestIn's deadline turns a hang into a failure.

func fifo(t *testing.T, path string) string {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return path
}

func TestValidateRefusesAFIFOSuite(t *testing.T) {
	pipe := fifo(t, filepath.Join(t.TempDir(), "suite.yml"))
	r := mcptest(t, "validate", pipe)
	if r.code != 2 {
		t.Fatalf("validate FIFO:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, pipe, "named pipe (FIFO), not a regular file")
}

func TestRunRefusesAFIFOImportAndDotenv(t *testing.T) {
	suite := writeSuite(t, mixedSuite)
	dir := filepath.Dir(suite)
	fifo(t, filepath.Join(dir, "shared.yml"))

	withImport := filepath.Join(dir, "imports.yml")
	if err := os.WriteFile(withImport, []byte("imports: [./shared.yml]\n"+strings.TrimPrefix(readFile(t, suite), "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcptest(t, "run", withImport)
	if r.code != 2 {
		t.Fatalf("run with a FIFO import:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, withImport, `cannot import "./shared.yml": a named pipe (FIFO)`)

	envPipe := fifo(t, filepath.Join(dir, "vars.env"))
	r = mcptest(t, "run", "--env-file", envPipe, suite)
	if r.code != 2 {
		t.Fatalf("run with a FIFO --env-file:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, envPipe, "cannot read the dotenv file: a named pipe (FIFO)")
}

// TestReportRefusesAGiantSparseFile: the file is made with truncate (no
// block written), and refused by its size before any read, so mcptest
// neither reads 3 GB nor runs out of memory.
func TestReportRefusesAGiantSparseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Skipf("truncate: %v", err)
	}
	f.Close()
	r := mcptest(t, "report", path)
	if r.code != 2 {
		t.Fatalf("report of a 3 GB file:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, path, "file of 3 GiB exceeds the limit of 256 MiB")

	pipe := fifo(t, filepath.Join(t.TempDir(), "run.json"))
	r = mcptest(t, "report", "merge", pipe)
	if r.code != 2 {
		t.Fatalf("report merge of a FIFO:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, pipe, "named pipe (FIFO)")
}
