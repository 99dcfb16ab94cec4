package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// destination is where one report's primary output goes. A regular file
// (or a path that does not exist yet) is written to a temporary file
// beside it and renamed over it only once the report is complete, so a
// run that fails, or is stopped, never truncates an earlier report.
// Standard output, pipes and devices are written as the output comes.
type destination struct {
	// name is how messages call it: the path, or "stdout".
	name string
	w    io.Writer
	// f is the opened file; nil for standard output.
	f *os.File
	// temp is the temporary file renamed to final on commit; "" when the
	// output is written in place.
	temp, final string
	// mu serialises writes; err is the first write error.
	mu  sync.Mutex
	err error
	// closed is set once the output is committed or discarded; later
	// writes are dropped.
	closed atomic.Bool
}

// pending holds the temporary files of reports not yet committed, so a
// forced exit can remove them (DiscardPending).
var pending sync.Map

// DiscardPending removes the temporary files of reports still being
// written. mcptest calls it when it must exit at once (a second Ctrl-C),
// so no half-written report is left beside its target.
func DiscardPending() {
	pending.Range(func(k, _ any) bool {
		_ = os.Remove(k.(string))
		pending.Delete(k)
		return true
	})
}

// stdoutDestination writes to standard output as the output comes.
func stdoutDestination(w io.Writer) *destination {
	return &destination{name: "stdout", w: w}
}

// openDestination prepares path for a report.
func openDestination(path string) (*destination, error) {
	target := path
	// A symlink is followed, so the report replaces the file it points to
	// and the link stays.
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("report path %s is a directory", path)
	case err == nil && (!fi.Mode().IsRegular() || isDescriptorPath(path)):
		return openStreamed(path, target, fi)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("report path: %w", err)
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create report folder: %w", err)
	}
	f, err := createBeside(target)
	if err != nil {
		return nil, fmt.Errorf("create report file beside %s: %w", path, err)
	}
	// The report keeps the mode of the file it replaces.
	if fi != nil {
		if err := f.Chmod(fi.Mode().Perm()); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("create report file beside %s: %w", path, err)
		}
	}
	pending.Store(f.Name(), true)
	return &destination{name: path, w: f, f: f, temp: f.Name(), final: target}, nil
}

// createBeside creates a new, empty temporary file in target's folder,
// named after it. It is created with mode 0666 like any new file, so the
// umask applies (os.CreateTemp would make it 0600).
func createBeside(target string) (*os.File, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%d.tmp", base, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errors.New("no free temporary file name")
}

// isDescriptorPath reports whether path names an open descriptor rather
// than a file (/dev/stdout, /dev/fd/3, /proc/self/fd/3, bash's >(...)).
// Even when the descriptor is a regular file it is written in place: the
// caller redirected it there, perhaps to append (>>), and a rename would
// replace the file behind the caller's back.
func isDescriptorPath(path string) bool {
	clean := filepath.Clean(path)
	switch {
	case clean == "/dev/stdout", clean == "/dev/stderr", strings.HasPrefix(clean, "/dev/fd/"):
		return true
	case strings.HasPrefix(clean, "/proc/"):
		// /proc/self/fd/N, /proc/PID/fd/N
		parts := strings.Split(clean, "/")
		return len(parts) == 5 && parts[3] == "fd"
	}
	return false
}

// openStreamed opens a pipe, a device or a descriptor path for writing in
// place, appending (so a file behind a descriptor opened with >> keeps what
// it held). A FIFO is opened without blocking: with no reader it is an
// error now rather than a run that hangs before its first test.
func openStreamed(path, target string, fi fs.FileInfo) (*destination, error) {
	flag := os.O_WRONLY | os.O_APPEND
	if fi.Mode()&fs.ModeNamedPipe != 0 {
		flag |= syscall.O_NONBLOCK
	}
	if isDescriptorPath(path) {
		// Reopen the descriptor itself, not the file it resolved to.
		target = path
	}
	f, err := os.OpenFile(target, flag, 0)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			return nil, fmt.Errorf("report path %s is a FIFO that no process is reading", path)
		}
		return nil, fmt.Errorf("open report %s: %w", path, err)
	}
	return &destination{name: path, w: f, f: f}, nil
}

// write appends rendered output. The first error is kept and reported at
// commit; what comes after it is dropped.
func (d *destination) write(p []byte) {
	if d.closed.Load() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil || d.closed.Load() {
		return
	}
	if _, err := d.w.Write(p); err != nil {
		d.err = fmt.Errorf("write report %s: %w", d.name, bare(err))
	}
}

// commit finishes a complete report: a temporary file is flushed to disk
// and renamed over its target. On any error the target is left as it was
// and the error, naming the file, is returned. Writes must have ended.
func (d *destination) commit() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed.Store(true)
	err := d.err
	if d.f == nil {
		return err
	}
	if d.temp != "" && err == nil {
		// Some file systems report a full disk only when the data is
		// flushed.
		if serr := d.f.Sync(); serr != nil {
			err = fmt.Errorf("write report %s: %w", d.name, bare(serr))
		}
	}
	if cerr := d.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("write report %s: %w", d.name, bare(cerr))
	}
	if d.temp == "" {
		return err
	}
	defer pending.Delete(d.temp)
	if err != nil {
		_ = os.Remove(d.temp)
		return err
	}
	if rerr := os.Rename(d.temp, d.final); rerr != nil {
		_ = os.Remove(d.temp)
		return fmt.Errorf("replace report %s: %w", d.name, rerr)
	}
	return nil
}

// discard drops an incomplete report: the temporary file is removed and
// the target keeps what it held. It does not wait for a write in progress
// (one stuck on a pipe nobody reads), so it takes no lock.
func (d *destination) discard() {
	if d.closed.Swap(true) {
		return
	}
	if d.f != nil {
		_ = d.f.Close()
	}
	if d.temp != "" {
		_ = os.Remove(d.temp)
		pending.Delete(d.temp)
	}
}

// bare drops the operation and path an *fs.PathError repeats (the
// temporary file's name means nothing to the user); the message names the
// report instead.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
