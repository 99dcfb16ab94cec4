package stdiowire

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// defaultWriteTimeout bounds a write to the server's stdin when the caller's
// context has no deadline, so a server that stops reading cannot block us.
const defaultWriteTimeout = 30 * time.Second

// errStdinStalled marks a write that the server did not read within
// defaultWriteTimeout although the caller had no deadline of its own.
var errStdinStalled = errors.New("the server stopped reading its stdin")

// errStdinBroken marks a stdin on which a frame was only partly written
// before a deadline: the next frame would be glued to the half-written one,
// so nothing more may be sent.
var errStdinBroken = errors.New("server stdin is unusable after a partial write")

// stdinWriter writes whole frames to the server's stdin, one at a time. It
// is shared by our calls and by mcp-go's transport, which sees it as an
// io.WriteCloser and writes one complete frame per Write call.
type stdinWriter struct {
	f    *os.File
	lock chan struct{} // a mutex that waiting writers can give up on
	once sync.Once
	err  error

	mu     sync.Mutex
	broken error // set after a partial write
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
	if err := w.brokenErr(); err != nil {
		return err
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
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if n > 0 {
			w.mu.Lock()
			w.broken = fmt.Errorf("%w: %w (%d of %d bytes written)", wire.ErrTimeout, errStdinBroken, n, len(b))
			w.mu.Unlock()
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("write to server stdin: %w", ctxErr)
		}
		if ok { // ctx's deadline; its timer has not fired yet
			return fmt.Errorf("write to server stdin: %w", context.DeadlineExceeded)
		}
		return fmt.Errorf("write to server stdin: %w: %w: a %d-byte frame was not read within %s",
			wire.ErrTimeout, errStdinStalled, len(b), defaultWriteTimeout)
	}
	return fmt.Errorf("write to server stdin: %w", err)
}

// brokenErr returns the error that made stdin unusable, or nil.
func (w *stdinWriter) brokenErr() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.broken
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
