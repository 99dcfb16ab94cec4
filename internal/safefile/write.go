package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic replaces path whole with data: it creates path's folder
// (mode dirPerm) when missing, writes a temporary file beside path
// (readable by its owner only) and renames it over path, so a concurrent
// reader sees the old file or the new one, never half of one, and an
// interrupted write leaves no partial file behind. The caches, token
// store and records of mcptest all write through it, so this is the one
// place that gets atomic replacement right.
func WriteAtomic(path string, data []byte, dirPerm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("create folder %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create a temporary file in %s: %w", dir, err)
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}
