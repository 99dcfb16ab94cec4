package httpwire

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// DefaultMaxBufferedBytes bounds the bytes of response bodies an HTTP
// session holds at once, across all its requests in flight: each body is
// also bounded by MaxMessageBytes, but several endless ones read side by
// side would otherwise add up to several times that.
const DefaultMaxBufferedBytes = 512 << 20

// ErrBodyBudget is matched by the error of a body read that would have
// taken the session's buffered bytes past MaxBufferedBytes.
var ErrBodyBudget = errors.New("response body budget exceeded")

// budgetError says which budget a body read ran into. It matches
// ErrBodyBudget, and errEventTooLong so that a stream cut short by it is
// not resumed (it would only run into it again).
type budgetError struct {
	limit int // the session's budget
	held  int // what this body held when it asked for more
}

// Error implements error.
func (e *budgetError) Error() string {
	return fmt.Sprintf("response bodies read at the same time would hold more than the session's budget of %s "+
		"(this one had reached %s; MaxBufferedBytes)", byteSize(e.limit), byteSize(e.held))
}

// Is matches ErrBodyBudget and errEventTooLong.
func (e *budgetError) Is(target error) bool {
	return target == ErrBodyBudget || target == errEventTooLong
}

// bodyBudget is the bytes a session's body readers may hold together.
type bodyBudget struct {
	mu    sync.Mutex
	limit int
	used  int
}

// take reserves n bytes, or reports false when they would exceed the
// limit.
func (b *bodyBudget) take(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

// give returns n bytes taken earlier.
func (b *bodyBudget) give(n int) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

// Held returns the bytes the session's body readers hold at the moment;
// once every read is over, it is 0.
func (w *Wire) Held() int {
	b := w.h.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// bodyHold is what one body reader has taken from its session's budget.
// A nil budget means no shared bound (only the per-message one).
type bodyHold struct {
	budget *bodyBudget
	held   int
}

// ensure makes the hold at least n bytes.
func (h *bodyHold) ensure(n int) error {
	if h == nil || h.budget == nil || n <= h.held {
		return nil
	}
	if !h.budget.take(n - h.held) {
		return &budgetError{limit: h.budget.limit, held: h.held}
	}
	h.held = n
	return nil
}

// release gives back everything held.
func (h *bodyHold) release() {
	if h == nil || h.budget == nil || h.held == 0 {
		return
	}
	h.budget.give(h.held)
	h.held = 0
}

// readBody reads r whole, up to limit bytes, taking from hold what it
// buffers. It reports whether the body was longer than limit (its bytes
// are then dropped, not returned). The body is read into chunks that never
// move, rather than one buffer that doubles, so what it holds is what it
// read (not twice that, plus the garbage of every smaller copy); chunks
// are joined only when the body is complete. hold keeps what was taken
// until the caller releases it, once it has done with the bytes.
//
// sizeHint is the body's announced length (Content-Length), or -1: when
// it is within limit, the first chunk has room for the whole body, so a
// body of the announced size is never copied.
func readBody(r io.Reader, limit int, hold *bodyHold, sizeHint int64) ([]byte, bool, error) {
	const first, most = 4 << 10, 1 << 20
	var chunks [][]byte
	total := 0
	for {
		size := first
		if n := len(chunks); n > 0 {
			size = min(2*cap(chunks[n-1]), most)
		} else if sizeHint >= 0 && sizeHint < int64(limit) {
			size = int(sizeHint) + 1 // one more, to see a longer body
		}
		size = min(size, limit+1-total)
		if err := hold.ensure(total + size); err != nil {
			return nil, false, err
		}
		c := make([]byte, size)
		n, err := fill(r, c)
		chunks = append(chunks, c[:n])
		total += n
		if total > limit {
			return nil, true, nil
		}
		switch {
		case err == nil:
			continue
		case errors.Is(err, io.EOF):
			// Joining copies the body once more, briefly; not counted,
			// as the chunks are garbage as soon as it is done.
			return join(chunks, total), false, nil
		default:
			return join(chunks, total), false, err
		}
	}
}

// fill reads into c until it is full or r fails. Unlike io.ReadFull it
// keeps io.EOF as it is, so a clean end stays apart from a body cut short
// (io.ErrUnexpectedEOF from the HTTP client).
func fill(r io.Reader, c []byte) (int, error) {
	n := 0
	for n < len(c) {
		m, err := r.Read(c[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// join concatenates chunks (total bytes in all) into one slice; a single
// chunk is returned as it is.
func join(chunks [][]byte, total int) []byte {
	if len(chunks) == 1 {
		return chunks[0]
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

// byteSize renders n bytes for messages: "512 MiB", "3.5 KiB", "17 bytes".
func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<20))) + " MiB"
	case n >= 1<<10:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<10))) + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}

// trimZero drops a ".0" decimal.
func trimZero(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}
