package vendor

import (
	"context"
	"io"
	"net/http"
	"sync"
)

// headBytes is how much of a reply's body a Capture keeps.
const headBytes = 4 << 10

// Capture records what the vendor answered to one call: the last reply's
// status, how many attempts were made, and the first bytes of the body.
type Capture struct {
	mu       sync.Mutex
	status   int
	attempts int
	head     []byte
}

type captureKey struct{}

// WithCapture returns ctx carrying a fresh Capture for the call made with it.
func WithCapture(ctx context.Context) (context.Context, *Capture) {
	c := &Capture{}
	return context.WithValue(ctx, captureKey{}, c), c
}

func captureOf(ctx context.Context) *Capture {
	c, _ := ctx.Value(captureKey{}).(*Capture)
	return c
}

func (c *Capture) record(resp *http.Response, attempts int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.status, c.attempts, c.head = resp.StatusCode, attempts, nil
	c.mu.Unlock()
}

// wrapBody keeps the head of resp's body as the SDK reads it.
func (c *Capture) wrapBody(resp *http.Response) {
	if c == nil || resp.Body == nil {
		return
	}
	resp.Body = &teeHead{ReadCloser: resp.Body, c: c}
}

// Status is the status of the last reply; 0 when none came.
func (c *Capture) Status() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// Attempts is how many times the request was sent.
func (c *Capture) Attempts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attempts
}

// Head is the first bytes of the last reply's body that were read.
func (c *Capture) Head() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.head...)
}

// teeHead copies the first headBytes read through it into the capture.
type teeHead struct {
	io.ReadCloser
	c *Capture
}

func (t *teeHead) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if n > 0 {
		t.c.mu.Lock()
		if room := headBytes - len(t.c.head); room > 0 {
			t.c.head = append(t.c.head, p[:min(n, room)]...)
		}
		t.c.mu.Unlock()
	}
	return n, err
}
