package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrLineTooLong is returned for a line longer than the reader's bound.
var ErrLineTooLong = errors.New("SSE line too long")

// keepBufferMax is the largest line buffer kept between lines; a bigger
// one, left by a huge line, is released.
const keepBufferMax = 1 << 20

// LineReader splits an event stream into lines of bounded length.
type LineReader struct {
	br     *bufio.Reader
	max    int
	line   []byte
	hasLF  bool // a line ended in CR: a following LF belongs to it
	primed bool // the byte-order mark has been checked

	// Reserve, when set, is called before the line being read grows to n
	// bytes, so the caller can count it against a budget shared with
	// other readers; its error ends the read and is returned as is.
	Reserve func(n int) error
}

// NewLineReader reads lines from r, each at most max bytes without its
// ending.
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, 32<<10), max: max}
}

// Next returns the next line without its ending; the slice is valid until
// the next call. At the end of the stream it returns the read error
// (io.EOF for a clean end), dropping an unterminated last line, as the
// standard says. A line over the bound is an error wrapping
// ErrLineTooLong. A line ending in CR is returned at once, without
// waiting for the next byte to see whether it is an LF.
func (l *LineReader) Next() ([]byte, error) {
	l.line = l.line[:0]
	if cap(l.line) > keepBufferMax {
		l.line = nil
	}
	if !l.primed {
		l.primed = true
		// Peek past the first byte only when it can start a BOM, so a
		// short stream is never held up.
		if b, err := l.br.Peek(1); err == nil && b[0] == 0xEF {
			if b, err := l.br.Peek(3); err == nil && string(b) == "\uFEFF" {
				_, _ = l.br.Discard(3)
			}
		}
	}
	for {
		if l.hasLF {
			// Looked at lazily, so a line ending in CR is returned at once
			// rather than when the next byte arrives.
			b, err := l.br.Peek(1)
			if err != nil {
				return nil, err
			}
			l.hasLF = false
			if b[0] == '\n' {
				_, _ = l.br.Discard(1)
				continue
			}
		}
		if l.br.Buffered() == 0 {
			if _, err := l.br.Peek(1); err != nil {
				return nil, err
			}
		}
		buf, _ := l.br.Peek(l.br.Buffered())
		i := bytes.IndexAny(buf, "\r\n")
		end := i
		if i < 0 {
			end = len(buf)
		}
		if len(l.line)+end > l.max {
			return nil, fmt.Errorf("%w: a line exceeds %d bytes", ErrLineTooLong, l.max)
		}
		if l.Reserve != nil {
			if err := l.Reserve(len(l.line) + end); err != nil {
				return nil, err
			}
		}
		l.line = append(l.line, buf[:end]...)
		if i < 0 {
			_, _ = l.br.Discard(len(buf))
			continue
		}
		l.hasLF = buf[i] == '\r'
		_, _ = l.br.Discard(i + 1)
		return l.line, nil
	}
}
