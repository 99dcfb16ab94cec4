//go:build unix

package pluginrpc

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The group file is read bounded and only when it is a regular file: a
// FIFO there would block the plugin's start, a huge file its memory.
func TestLookupGroupInIsBounded(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "group")
	if err := os.WriteFile(good, []byte("root:x:0:\nmcptest:x:1234:alice\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if gid, err := lookupGroupIn(good, "mcptest"); err != nil || gid != 1234 {
		t.Fatalf("lookupGroupIn(mcptest) = %d, %v; want 1234", gid, err)
	}
	if _, err := lookupGroupIn(good, "nobody"); err == nil || !strings.Contains(err.Error(), `no group "nobody"`) {
		t.Errorf("a missing group: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, maxGroupFile+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lookupGroupIn(big, "mcptest"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("an oversized group file: %v, want refused", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := lookupGroupIn(fifo, "mcptest"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO as group file: %v, want refused without blocking", err)
	}
}
