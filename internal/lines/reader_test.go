package lines

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// next reads one line and returns it as a string with the error.
func next(l *Reader) (string, error) {
	b, err := l.Next()
	return string(b), err
}

// An over-long line is skipped whole, its start kept in Head (at most
// headMax bytes) and its length in Size; the lines around it are intact
// and Size is cleared again for them.
func TestOverLongLineKeepsHead(t *testing.T) {
	long := strings.Repeat("x", 100)
	l := New(strings.NewReader("ab\n"+long+"\ncd"), 50, 8)
	if got, err := next(l); got != "ab\n" || err != nil {
		t.Fatalf("first line %q, %v", got, err)
	}
	if _, err := l.Next(); !errors.Is(err, ErrTooLong) {
		t.Fatalf("long line: %v", err)
	}
	if string(l.Head) != "xxxxxxxx" || l.Size != 101 {
		t.Fatalf("head %q size %d", l.Head, l.Size)
	}
	if got, err := next(l); got != "cd" || err != io.EOF || l.Size != 0 {
		t.Fatalf("last line %q, %v, size %d", got, err, l.Size)
	}
}

// The bound counts the "\n": a line of exactly max bytes with it fits.
func TestBoundCountsNewline(t *testing.T) {
	l := New(strings.NewReader("1234\n12345\n"), 5, 5)
	if got, err := next(l); got != "1234\n" || err != nil {
		t.Fatalf("fitting line %q, %v", got, err)
	}
	if _, err := l.Next(); !errors.Is(err, ErrTooLong) || string(l.Head) != "12345" || l.Size != 6 {
		t.Fatalf("over by its newline: %v, head %q size %d", err, l.Head, l.Size)
	}
}

// Head gathers the line's first bytes across reads smaller than headMax,
// where a reader hands the line over in many fragments.
func TestHeadAcrossFragments(t *testing.T) {
	long := strings.Repeat("0123456789", 20<<10) // 200 KiB, past the 64 KiB buffer
	l := New(iotest.HalfReader(strings.NewReader(long+"\nz\n")), 100<<10, 70<<10)
	if _, err := l.Next(); !errors.Is(err, ErrTooLong) {
		t.Fatalf("long line: %v", err)
	}
	if len(l.Head) != 70<<10 || string(l.Head) != long[:70<<10] || l.Size != len(long)+1 {
		t.Fatalf("head %d bytes, size %d", len(l.Head), l.Size)
	}
	if got, err := next(l); got != "z\n" || err != nil {
		t.Fatalf("next line %q, %v", got, err)
	}
}

// An over-long line that the end of the stream cuts short returns the read
// error, with Head and Size still telling what it was.
func TestOverLongLineAtEnd(t *testing.T) {
	l := New(strings.NewReader(strings.Repeat("y", 30)), 10, 4)
	if _, err := l.Next(); err != io.EOF {
		t.Fatalf("err = %v, want EOF", err)
	}
	if string(l.Head) != "yyyy" || l.Size != 30 {
		t.Fatalf("head %q size %d", l.Head, l.Size)
	}
}
