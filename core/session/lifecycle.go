package session

import (
	"time"
)

// die records why the session can carry no more calls and wakes every
// waiting call. Only the first reason is kept.
func (s *Session) die(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deadErr == nil {
		s.deadErr, s.deadAt = err, time.Now()
		close(s.dead)
	}
}

// deathError returns why the session died, or nil while it is alive.
func (s *Session) deathError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deadErr
}

// awaitDeath waits up to d for the session to die and returns why, or nil.
func (s *Session) awaitDeath(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.dead:
		return s.deathError()
	case <-t.C:
		return nil
	}
}

// Close ends the session and releases everything it holds. Calls in
// flight fail with ErrClosed. Close is idempotent and safe to call
// concurrently.
//
// For a stdio server it closes the server's stdin, waits up to 100 ms for
// it to exit, sends SIGTERM to its process group, waits up to 500 ms,
// then sends SIGKILL and reaps it; finally it kills whatever is left in the
// group. It returns an error only if the process could not be reaped.
//
// For a URL server it aborts the open streams, sends DELETE to end a
// Streamable HTTP session that has an id (a server answering 405 is fine)
// and closes the connections. It returns nil.
func (s *Session) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.shutdown() })
	return s.closeErr
}

// shutdown does Close's work, once.
func (s *Session) shutdown() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.die(ErrClosed)

	err := s.t.Stop()
	s.cancel()
	if s.client != nil {
		_ = s.client.Close()
	}
	// Closing the writer gives mcp-go's reader EOF and unblocks a router
	// write in progress. (Closing the reader too would make mcp-go log a
	// spurious read error.)
	_ = s.toClient.Close()
	s.bg.Wait()
	s.t.Drain()
	return err
}
