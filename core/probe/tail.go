package probe

import "sync"

// Tail keeps the last Max bytes written to it, so a chatty server's output
// can be shown without holding all of it. It is safe for concurrent use.
type Tail struct {
	// Max bounds the bytes kept; 0 means DefaultTailBytes.
	Max int

	mu      sync.Mutex
	buf     []byte
	dropped int64
}

// DefaultTailBytes is the capture bound used when none is set.
const DefaultTailBytes = 64 << 10

// Write keeps the newest bytes of p; it never fails.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	limit := t.Max
	if limit <= 0 {
		limit = DefaultTailBytes
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - limit; over > 0 {
		t.dropped += int64(over)
		// Copy rather than reslice so the dropped prefix can be collected.
		t.buf = append([]byte(nil), t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept bytes.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// Dropped is the number of older bytes no longer kept.
func (t *Tail) Dropped() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dropped
}
