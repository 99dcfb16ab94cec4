package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is matched (errors.Is) by the error for a path that names
// anything but a regular file: a FIFO, a socket, a device, a directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is matched (errors.Is) by the error for a file larger than
// the limit its reader allows.
var ErrTooLarge = errors.New("file too large")

// NotRegularError says what a refused path is instead of a regular file.
type NotRegularError struct {
	// Mode is the file's mode as stat saw it.
	Mode fs.FileMode
}

// Error names the kind of file, for example "a named pipe (FIFO), not a
// regular file".
func (e *NotRegularError) Error() string { return Kind(e.Mode) + ", not a regular file" }

// Is makes errors.Is(err, ErrNotRegular) hold.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// TooLargeError is a file whose size exceeds the limit of its reader.
type TooLargeError struct {
	// Size is the size stat reported (or the bytes read so far, for a file
	// that grew while it was read); Limit is the reader's bound.
	Size, Limit int64
}

// Error gives both sizes in human units.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file of %s exceeds the limit of %s", Size(e.Size), Size(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) hold.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Kind describes a file mode for messages: "a named pipe (FIFO)", "a
// socket", "a character device", "a directory"...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file (mode " + m.String() + ")"
}

// Size renders a byte count: "512 B", "1.5 MiB", "3 GiB".
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	if n%div == 0 {
		return fmt.Sprintf("%d %ciB", n/div, "KMGTP"[exp])
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// Open opens path for reading when it names a regular file (symbolic links
// are followed), and returns the file with the result of fstat on it.
// Anything else is refused before it is opened, with a *fs.PathError whose
// Err is a *NotRegularError; nothing here blocks on a FIFO or a device.
func Open(path string) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: info.Mode()}}
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	// The path may have been replaced between the stat and the open: what
	// counts is the file actually opened.
	info, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: info.Mode()}}
	}
	return f, info, nil
}

// ReadFile reads the regular file at path whole, refusing it (before any
// read) when its size exceeds limit bytes, and stopping with the same
// error when it grows past limit while being read. Errors are
// *fs.PathError values naming path; see Open for what is refused.
func ReadFile(path string, limit int64) ([]byte, error) {
	r, err := OpenLimited(path, limit)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// One allocation of the stated size; the spare MinRead bytes let
	// ReadFrom see the end of the file without growing the buffer.
	var b bytes.Buffer
	b.Grow(int(r.size) + bytes.MinRead)
	if _, err := b.ReadFrom(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// LimitedReader is a reader over an opened file that fails with a
// *TooLargeError (wrapped in a *fs.PathError) once more than its limit has
// been read, instead of silently truncating as io.LimitReader does.
type LimitedReader struct {
	f     *os.File
	path  string
	limit int64
	read  int64
	size  int64 // from fstat at open
}

// OpenLimited opens path as Open does and returns a reader that refuses
// to go past limit bytes; a file whose size already exceeds limit is
// refused before any read. The caller closes it.
func OpenLimited(path string, limit int64) (*LimitedReader, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	if info.Size() > limit {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: info.Size(), Limit: limit}}
	}
	return &LimitedReader{f: f, path: path, limit: limit, size: info.Size()}, nil
}

// Read reads from the file, failing once the limit is passed.
func (r *LimitedReader) Read(p []byte) (int, error) {
	if int64(len(p)) > r.limit-r.read+1 {
		p = p[:r.limit-r.read+1]
	}
	n, err := r.f.Read(p)
	r.read += int64(n)
	if r.read > r.limit {
		return n, &fs.PathError{Op: "read", Path: r.path, Err: &TooLargeError{Size: r.read, Limit: r.limit}}
	}
	return n, err
}

// Close closes the file.
func (r *LimitedReader) Close() error { return r.f.Close() }
