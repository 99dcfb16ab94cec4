package testbin

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// TestBuildSkipsInShortMode: in -short mode the calling test is skipped,
// with a message naming the program, and nothing is built.
func TestBuildSkipsInShortMode(t *testing.T) {
	if !testing.Short() {
		t.Skip("checks -short behaviour; run with -short")
	}
	var inner *testing.T
	t.Run("inner", func(t *testing.T) {
		inner = t
		Build(t, "github.com/mcptest/mcptest/internal/testbin/testdata/hello")
		t.Error("Build returned in -short mode")
	})
	if !inner.Skipped() {
		t.Error("the test was not skipped")
	}
	if dir != "" {
		t.Errorf("something was built into %s", dir)
	}
}

// TestBuildOnceShared: concurrent callers get one build, which runs.
func TestBuildOnceShared(t *testing.T) {
	const pkg = "github.com/mcptest/mcptest/internal/testbin/testdata/hello"
	first := Build(t, pkg) // skips in -short mode
	paths := make([]string, 4)
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() { paths[i], _ = Get(pkg) })
	}
	wg.Wait()
	paths = append(paths, first)
	for _, p := range paths[1:] {
		if p != paths[0] {
			t.Fatalf("paths differ: %q", paths)
		}
	}
	out, err := exec.Command(paths[0]).Output()
	if err != nil || strings.TrimSpace(string(out)) != "hello" {
		t.Fatalf("built program: %q, %v", out, err)
	}
	if _, err := Get(pkg + "/missing"); err == nil || !strings.Contains(err.Error(), "go build") {
		t.Errorf("a package that does not exist: %v", err)
	}
}
