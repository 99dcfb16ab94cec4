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
	buf []byte // holds lines longer than br's buffer
	max int
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
	l.buf = l.buf[:0]
	for {
		frag, err := l.br.ReadSlice('\n')
		if err == nil && len(l.buf) == 0 {
			if len(frag) > l.max {
				return l.tooLong(frag, len(frag))
			}
			return frag, nil // fast path: the line fits the bufio buffer
		}
		if len(l.buf)+len(frag) > l.max {
			return l.skipLine(frag, err)
		}
		l.grow(len(frag))
		l.buf = append(l.buf, frag...)
		if err != bufio.ErrBufferFull {
			return l.buf, err
		}
	}
}

// grow makes room for n more bytes in buf, doubling its capacity. (append
// grows big slices by only a quarter at a time: a 50 MB line would then
// cost some 230 MB of allocations instead of about 130.)
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
	size := len(l.buf) + len(frag)
	if len(l.buf) == 0 {
		l.buf = append(l.buf, frag[:min(len(frag), FrameLimit)]...)
	}
	for err == bufio.ErrBufferFull {
		frag, err = l.br.ReadSlice('\n')
		size += len(frag)
	}
	_, tooLong := l.tooLong(l.buf, size)
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
