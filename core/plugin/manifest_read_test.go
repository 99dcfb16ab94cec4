//go:build unix

package plugin

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

// TestReadManifestIsBounded: a manifest that is a FIFO with no writer is
// refused at once (it used to block discovery for good), and one over
// 1 MiB is refused by its size before any read.
func TestReadManifestIsBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, ManifestFile)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadManifest(fifo); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrInvalidManifest) || !errors.Is(err, safefile.ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("FIFO manifest: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ReadManifest is blocked on a FIFO")
	}

	big := filepath.Join(t.TempDir(), ManifestFile)
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxManifestSize + 1); err != nil {
		t.Skip(err)
	}
	f.Close()
	if _, err := ReadManifest(big); !errors.Is(err, safefile.ErrTooLarge) || !strings.Contains(err.Error(), big) {
		t.Errorf("oversized manifest: %v", err)
	}
}
