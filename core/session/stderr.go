package session

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// DefaultStderrLimit is how many bytes of a server's stderr a session keeps
// when StdioConfig.StderrLimit is zero.
const DefaultStderrLimit = 64 << 10

// tailBuffer keeps the last limit bytes written to it. It never blocks, so
// a chatty server can never stall on a full stderr pipe.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	limit int
}

func newTailBuffer(limit int) *tailBuffer {
	return &tailBuffer{limit: limit}
}

// Write appends p, dropping the oldest bytes beyond the limit. The buffer
// compacts only when it reaches twice the limit, so writes are amortised O(len(p)).
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.limit {
		t.buf = append(t.buf[:0], p[len(p)-t.limit:]...)
		return n, nil
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.limit {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.limit:]...)
	}
	return n, nil
}

// Tail returns the last n lines (n <= 0 means all that is kept), without a
// trailing newline.
func (t *tailBuffer) Tail(n int) string {
	t.mu.Lock()
	b := t.buf
	if len(b) > t.limit {
		b = b[len(b)-t.limit:]
	}
	b = bytes.TrimRight(b, "\r\n")
	if n > 0 {
		start := len(b)
		for i := 0; i < n && start > 0; i++ {
			start = bytes.LastIndexByte(b[:start], '\n')
			if start < 0 {
				start = 0
				break
			}
		}
		if start > 0 {
			start++ // skip the newline itself
		}
		b = b[start:]
	}
	s := string(b)
	t.mu.Unlock()
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// drain copies r into t until r ends, then closes done.
func (t *tailBuffer) drain(r io.Reader, done chan<- struct{}) {
	defer close(done)
	_, _ = io.Copy(t, r)
}
