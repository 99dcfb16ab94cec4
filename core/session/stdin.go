package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// defaultWriteTimeout bounds a write to the server's stdin when the caller's
// context has no deadline, so a server that stops reading cannot block us.
const defaultWriteTimeout = 30 * time.Second

// errStdinBroken marks a stdin on which a frame was only partly written:
// the next frame would be glued to the half-written one, so nothing more may
// be sent.
var errStdinBroken = errors.New("server stdin is unusable after a partial write")

// stdinWriter writes whole frames to the server's stdin, one at a time. It
// is shared by our calls and by mcp-go's transport, which sees it as an
// io.WriteCloser and writes one complete frame per Write call.
type stdinWriter struct {
	f      *os.File
	lock   chan struct{} // a mutex that waiting writers can give up on
	broken error         // set, under lock, after a partial write
	once   sync.Once
	err    error
}

func newStdinWriter(f *os.File) *stdinWriter {
	return &stdinWriter{f: f, lock: make(chan struct{}, 1)}
}

// writeFrame writes b, which must be one complete frame ending in "\n". It
// gives up when ctx ends or after defaultWriteTimeout without a deadline.
func (w *stdinWriter) writeFrame(ctx context.Context, b []byte) error {
	select {
	case w.lock <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-w.lock }()
	if w.broken != nil {
		return w.broken
	}

	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(defaultWriteTimeout)
	}
	if err := w.f.SetWriteDeadline(deadline); err != nil {
		return fmt.Errorf("set stdin deadline: %w", err)
	}
	// A cancelled (rather than expired) context interrupts the write too.
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = w.f.SetWriteDeadline(time.Unix(1, 0))
		close(fired)
	})
	n, err := w.f.Write(b)
	if !stop() {
		<-fired
	}
	if err == nil {
		return nil
	}
	if n > 0 && n < len(b) {
		w.broken = fmt.Errorf("%w (%d of %d bytes written)", errStdinBroken, n, len(b))
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("write to server stdin: %w", ctxErr)
		}
		return fmt.Errorf("write to server stdin: %w: the server did not read %d bytes within %s", ErrTimeout, len(b), defaultWriteTimeout)
	}
	return fmt.Errorf("write to server stdin: %w", err)
}

// Write implements io.Writer for mcp-go's transport.
func (w *stdinWriter) Write(p []byte) (int, error) {
	if err := w.writeFrame(context.Background(), p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close closes the server's stdin, telling it to exit. It is idempotent.
func (w *stdinWriter) Close() error {
	w.once.Do(func() { w.err = w.f.Close() })
	return w.err
}
