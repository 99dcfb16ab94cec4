package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// liveProcs lists running processes whose executable lies under one of the
// test's build folders: mcptest itself, the demo server and every plugin.
func liveProcs() []string {
	var out []string
	dirs := []string{filepath.Dir(binDir)}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil {
			continue
		}
		for _, d := range dirs {
			if strings.HasPrefix(exe, d) {
				out = append(out, e.Name()+" "+exe)
			}
		}
	}
	return out
}

// assertNoOrphans fails when a process started from the build folders is
// still alive shortly after mcptest exited.
func assertNoOrphans(t *testing.T) {
	t.Helper()
	// A bounded poll of /proc: the processes are mcptest's children (or
	// theirs), so their exit is no event this process can wait on.
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := liveProcs()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
