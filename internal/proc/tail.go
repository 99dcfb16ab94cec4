package proc

import (
	"bytes"
	"strings"
	"sync"
)

// DefaultTailBytes is how many bytes a Tail keeps when its Max is not set.
const DefaultTailBytes = 64 << 10

// Tail keeps the last Max bytes written to it: the one bounded buffer for
// a child's stderr (and for output kept only for reports). Write never
// fails or blocks, so a chatty process never stalls on a full pipe. The
// zero value is ready to use; a Tail is safe for concurrent use.
type Tail struct {
	// Max bounds the bytes kept; 0 or less means DefaultTailBytes. Set it
	// before the first Write.
	Max int

	mu  sync.Mutex
	buf []byte
	// total counts every byte written, so Dropped needs no bookkeeping
	// when the buffer compacts.
	total int64
}

// NewTail returns a Tail that keeps max bytes.
func NewTail(max int) *Tail { return &Tail{Max: max} }

func (t *Tail) limit() int {
	if t.Max <= 0 {
		return DefaultTailBytes
	}
	return t.Max
}

// Write keeps the newest bytes of p. The buffer compacts only when it
// reaches twice the bound, so writes cost amortised O(len(p)).
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	limit := t.limit()
	t.total += int64(len(p))
	if len(p) >= limit {
		t.buf = append(t.buf[:0], p[len(p)-limit:]...)
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*limit {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-limit:]...)
	}
	return len(p), nil
}

// kept returns the bytes within the bound; t.mu must be held.
func (t *Tail) kept() []byte {
	if limit := t.limit(); len(t.buf) > limit {
		return t.buf[len(t.buf)-limit:]
	}
	return t.buf
}

// String returns the kept bytes.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.kept())
}

// Dropped is the number of older bytes no longer kept.
func (t *Tail) Dropped() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total - int64(len(t.kept()))
}

// Lines returns the last n lines kept (n <= 0 means all of them), without
// a trailing newline and with CRLF endings turned into LF.
func (t *Tail) Lines(n int) string {
	t.mu.Lock()
	b := bytes.TrimRight(t.kept(), "\r\n")
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
