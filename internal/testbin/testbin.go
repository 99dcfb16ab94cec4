// Package testbin builds the Go programs that tests run as real processes
// (the demo and chaos servers, fake servers, plugins), once per test
// binary and only when a test asks for one.
//
// Building is the slow part of those tests, so in -short mode nothing is
// built: Build skips the calling test with a message saying so. `make
// test` (no -short) runs them all.
package testbin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// build is one program, built at most once into out.
type build struct {
	once sync.Once
	out  string
	path string
	err  error
}

// buildLimit bounds one `go build`: a cold build of a server takes seconds,
// a loaded machine a few times that; a hung toolchain must not hang the
// test binary.
const buildLimit = 5 * time.Minute

var (
	mu     sync.Mutex
	dir    string
	builds = map[string]*build{}
)

// Build returns the path of the program built from the Go package pkg (a
// full import path, so the caller's working directory does not matter).
// The first call for pkg builds it; later calls, from any goroutine, wait
// for that build and share it. In -short mode it skips t instead; a
// failed build fails t.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("needs %s built as a binary; -short builds no binaries (make test runs it)", path.Base(pkg))
	}
	p, err := get(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Get is Build for setup code that has no test to skip (TestMain,
// benchmarks): it returns the error, and it builds in -short mode too,
// so callers decide whether to call it.
func Get(pkg string) (string, error) { return get(pkg) }

func get(pkg string) (string, error) {
	mu.Lock()
	if dir == "" {
		d, err := os.MkdirTemp("", "testbin-")
		if err != nil {
			mu.Unlock()
			return "", fmt.Errorf("testbin: %w", err)
		}
		dir = d
	}
	b := builds[pkg]
	if b == nil {
		// Numbered, so that two packages with the same last element
		// (cmd/server, other/server) do not overwrite each other.
		b = &build{out: filepath.Join(dir, fmt.Sprintf("%d-%s", len(builds), path.Base(pkg)))}
		builds[pkg] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), buildLimit)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", b.out, pkg)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %w\n%s", pkg, err, msg)
			return
		}
		b.path = b.out
	})
	return b.path, b.err
}

// Cleanup removes every program built so far. Call it from TestMain after
// m.Run.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
		dir = ""
		builds = map[string]*build{}
	}
}
