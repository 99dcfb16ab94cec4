package session

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// errLineTooLong reports a stdout line longer than MaxMessageBytes.
var errLineTooLong = errors.New("line too long")

// lineReader splits the server's stdout into lines of bounded length.
type lineReader struct {
	br  *bufio.Reader
	buf []byte // holds lines longer than br's buffer, up to keepBufferMax
	// chunks hold a line beyond keepBufferMax, joined once it ends: a huge
	// line then costs its size twice, briefly, and is kept at its exact
	// size, where a doubling buffer would copy it over and over and keep
	// up to twice its size.
	chunks [][]byte
	// total is the length of the line in buf and chunks.
	total int
	max   int
	// head keeps the start of the last discarded over-long line, size its
	// length, so the frame can be reported and its id recovered.
	head []byte
	size int
}

// keepBufferMax is the largest line buffer kept between lines; a bigger one
// (left by a huge response) is released.
const keepBufferMax = 1 << 20

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line including its "\n". The slice is valid until
// the next call. At the end of the stream it returns the last, unterminated,
// line (possibly empty) with the read error. A line longer than max is
// consumed and reported as errLineTooLong, with its start in head.
func (l *lineReader) next() ([]byte, error) {
	if cap(l.buf) > keepBufferMax {
		l.buf = nil
	}
	l.buf, l.chunks, l.total = l.buf[:0], nil, 0
	for {
		frag, err := l.br.ReadSlice('\n')
		if err == nil && l.total == 0 {
			if len(frag) > l.max {
				return l.tooLong(frag, len(frag))
			}
			return frag, nil // fast path: the line fits the bufio buffer
		}
		if l.total+len(frag) > l.max {
			return l.skipLine(frag, err)
		}
		l.add(frag)
		if err != bufio.ErrBufferFull {
			return l.line(), err
		}
	}
}

// lineChunk is the size of the chunks of a huge line.
const lineChunk = 4 << 20

// add appends a fragment of the current line.
func (l *lineReader) add(frag []byte) {
	l.total += len(frag)
	if l.chunks == nil && len(l.buf)+len(frag) <= keepBufferMax {
		l.grow(len(frag))
		l.buf = append(l.buf, frag...)
		return
	}
	if l.chunks == nil {
		l.chunks = [][]byte{l.buf}
		l.buf = nil // the chunks own it now
	}
	for len(frag) > 0 {
		last := &l.chunks[len(l.chunks)-1]
		if cap(*last) == len(*last) {
			l.chunks = append(l.chunks, make([]byte, 0, lineChunk))
			last = &l.chunks[len(l.chunks)-1]
		}
		n := min(len(frag), cap(*last)-len(*last))
		*last = append(*last, frag[:n]...)
		frag = frag[n:]
	}
}

// line returns the current line: buf, or the chunks joined at exact size.
func (l *lineReader) line() []byte {
	if l.chunks == nil {
		return l.buf
	}
	out := make([]byte, 0, l.total)
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	l.chunks = nil
	return out
}

// grow makes room for n more bytes in buf, doubling its capacity. (append
// grows big slices by only a quarter at a time, which copies more.)
func (l *lineReader) grow(n int) {
	if cap(l.buf)-len(l.buf) >= n {
		return
	}
	buf := make([]byte, len(l.buf), max(2*cap(l.buf), len(l.buf)+n))
	copy(buf, l.buf)
	l.buf = buf
}

// skipLine discards the rest of an over-long line whose latest fragment is
// frag and returns errLineTooLong (or the read error that ended it).
func (l *lineReader) skipLine(frag []byte, err error) ([]byte, error) {
	size := l.total + len(frag)
	start := l.buf
	if l.chunks != nil {
		start = l.chunks[0]
	}
	if len(start) == 0 {
		start = frag
	}
	_, tooLong := l.tooLong(start, size)
	l.chunks = nil
	for err == bufio.ErrBufferFull {
		frag, err = l.br.ReadSlice('\n')
		size += len(frag)
	}
	l.size = size
	if err != nil {
		return nil, err
	}
	return nil, tooLong
}

// tooLong records the start of an over-long line of the given size.
func (l *lineReader) tooLong(start []byte, size int) ([]byte, error) {
	l.head = append(l.head[:0], start[:min(len(start), FrameLimit)]...)
	l.size = size
	return nil, errLineTooLong
}

// readStdout routes every line the server writes (see Session.route), and
// records non-JSON lines in the noise log. It returns when stdout ends or is
// closed.
func (p *stdioTransport) readStdout(lr *lineReader) {
	s := p.s
	defer close(p.stdoutDone)
	defer s.toClient.Close() // mcp-go sees EOF and fails its own requests
	for {
		line, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			s.routeTooLong(lr.head, lr.size)
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			// next drops a buffer this large instead of reusing it.
			s.route(line, source{owned: cap(line) > keepBufferMax})
		}
		if err != nil {
			return
		}
	}
}
