package lines

import (
	"bufio"
	"errors"
	"io"
)

// ErrTooLong reports a line longer than the reader's bound.
var ErrTooLong = errors.New("line too long")

// Reader splits a stream (a server's stdout) into lines of bounded length.
type Reader struct {
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
	// headMax bounds Head.
	headMax int

	// Head keeps the first bytes (at most the headMax given to New) of
	// the last over-long line, and Size its length, so it can be reported
	// and a JSON-RPC id recovered from it. Next sets both for an
	// over-long line, also one that the end of the stream cut short, and
	// sets Size to 0 otherwise.
	Head []byte
	Size int
}

// KeepBufferMax is the largest line buffer kept between lines; a bigger
// one (left by a huge response) is released, so a line longer than this
// that Next returned is the caller's to keep.
const KeepBufferMax = 1 << 20

// keepBufferMax is KeepBufferMax, under the name the code below uses.
const keepBufferMax = KeepBufferMax

// New reads lines of at most max bytes (with their "\n") from r, keeping
// at most headMax bytes of the start of an over-long line in Head.
func New(r io.Reader, max, headMax int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: max, headMax: headMax}
}

// Next returns the next line including its "\n". The slice is valid until
// the next call. At the end of the stream it returns the last, unterminated,
// line (possibly empty) with the read error. A line longer than max is
// consumed and reported as ErrTooLong, with its start in Head and its
// length in Size; one that the end of the stream cut short returns the
// read error, with Head and Size set as well.
func (l *Reader) Next() ([]byte, error) {
	if cap(l.buf) > keepBufferMax {
		l.buf = nil
	}
	l.buf, l.chunks, l.total, l.Size = l.buf[:0], nil, 0, 0
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
func (l *Reader) add(frag []byte) {
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
func (l *Reader) line() []byte {
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
func (l *Reader) grow(n int) {
	if cap(l.buf)-len(l.buf) >= n {
		return
	}
	buf := make([]byte, len(l.buf), max(2*cap(l.buf), len(l.buf)+n))
	copy(buf, l.buf)
	l.buf = buf
}

// skipLine discards the rest of an over-long line whose latest fragment is
// frag and returns ErrTooLong (or the read error that ended it).
func (l *Reader) skipLine(frag []byte, err error) ([]byte, error) {
	size := l.total + len(frag)
	// Head is the first headMax bytes of what was gathered, then frag.
	l.Head = l.Head[:0]
	parts := l.chunks
	if parts == nil {
		parts = [][]byte{l.buf}
	}
	for _, p := range append(parts, frag) {
		l.Head = append(l.Head, p[:min(len(p), l.headMax-len(l.Head))]...)
	}
	l.chunks = nil
	for err == bufio.ErrBufferFull {
		frag, err = l.br.ReadSlice('\n')
		size += len(frag)
	}
	l.Size = size
	if err != nil {
		return nil, err
	}
	return nil, ErrTooLong
}

// tooLong records the start of an over-long line of the given size.
func (l *Reader) tooLong(start []byte, size int) ([]byte, error) {
	l.Head = append(l.Head[:0], start[:min(len(start), l.headMax)]...)
	l.Size = size
	return nil, ErrTooLong
}
