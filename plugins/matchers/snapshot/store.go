package main

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sync"
)

// store reads and writes snapshot files. All access goes through os.Root,
// so even a symbolic link inside the snapshots folder cannot lead a read
// or write outside it.
type store struct {
	// locks holds one mutex per snapshot file (by absolute path), so two
	// assertions on the same key in one run take turns: the second sees
	// what the first recorded.
	locks sync.Map // string -> *sync.Mutex
}

// lock takes the lock of the snapshot file at abs and returns its unlock.
func (s *store) lock(abs string) func() {
	m, _ := s.locks.LoadOrStore(abs, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// read returns the contents of file inside dir; found is false when the
// file (or dir) does not exist yet.
func (s *store) read(dir, file string) (data []byte, found bool, err error) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("open snapshots folder: %w", err)
	}
	defer root.Close()
	data, err = root.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read snapshot: %w", err)
	}
	return data, true, nil
}

// write replaces file inside dir with data, creating folders as needed.
// The data goes to a temporary file in the same folder that is renamed
// over the target, so a reader (or a crash) never sees half a file. It
// reports whether anything changed: identical contents are left alone so
// the file's timestamp does not churn.
func (s *store) write(dir, file string, data []byte) (changed bool, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("create snapshots folder: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return false, fmt.Errorf("open snapshots folder: %w", err)
	}
	defer root.Close()
	if old, err := root.ReadFile(file); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if sub := path.Dir(file); sub != "." {
		if err := root.MkdirAll(sub, 0o755); err != nil {
			return false, fmt.Errorf("create snapshot folder: %w", err)
		}
	}
	tmp := path.Join(path.Dir(file), "."+path.Base(file)+".tmp-"+rand.Text())
	if err := writeNew(root, tmp, data); err != nil {
		_ = root.Remove(tmp)
		return false, err
	}
	if err := root.Rename(tmp, file); err != nil {
		_ = root.Remove(tmp)
		return false, fmt.Errorf("replace snapshot: %w", err)
	}
	return true, nil
}

// writeNew creates name (which must not exist) with data, flushed to disk
// before the rename makes it visible.
func writeNew(root *os.Root, name string, data []byte) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create temporary snapshot: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write temporary snapshot: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("flush temporary snapshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close temporary snapshot: %w", err)
	}
	return nil
}
