//go:build unix

package cassette

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/safefile"
)

// A cassette path naming a FIFO with no writer is refused at once, not
// waited on (every file mcptest is given by path is read this way).
func TestLoadCassetteRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tape.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load(path); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Fatalf("err = %v, want a refusal of a non-regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
}
