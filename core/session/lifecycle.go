package session

import (
	"fmt"
	"strings"
	"time"
)

// Shutdown and death-detection timings.
const (
	// exitGrace is how long, once stdout ends or the process exits, the
	// session waits for the other (and for the last stderr output) before
	// declaring the server dead.
	exitGrace = 500 * time.Millisecond
	// closeGrace is how long Close waits after closing stdin, and again
	// after SIGTERM, before escalating.
	closeGrace = time.Second
	// killWait is how long Close waits for the process to be reaped after
	// SIGKILL.
	killWait = 5 * time.Second
	// stderrErrorLines is how many stderr lines an error carries.
	stderrErrorLines = 20
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

// monitor declares the session dead once the server exits or closes stdout,
// after giving the rest of its output a moment to arrive.
func (s *Session) monitor() {
	select {
	case <-s.stdoutDone:
	case <-s.exited:
	}
	deadline := time.Now().Add(exitGrace)
	waitUntil(s.stdoutDone, deadline)
	waitUntil(s.exited, deadline)
	waitUntil(s.stderrDone, deadline)
	s.die(s.exitError())
}

// waitUntil waits for ch to close or for deadline, whichever comes first.
func waitUntil(ch <-chan struct{}, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// exitError describes the server's end as a *ServerExitError.
func (s *Session) exitError() error {
	e := &ServerExitError{
		Server:      s.cfg.Name,
		Status:      statusRunning,
		ExitCode:    -1,
		StderrTail:  s.stderr.Tail(stderrErrorLines),
		StdoutNoise: s.noise.String(),
	}
	select {
	case <-s.exited:
		if st := s.cmd.ProcessState; st != nil {
			e.Status, e.ExitCode = st.String(), st.ExitCode()
		} else if s.waitErr != nil {
			e.Status = s.waitErr.Error()
		}
	default:
	}
	return e
}

// outputSummary renders what the server printed, for errors that are not a
// ServerExitError: "; non-JSON output on stdout: ...; stderr tail: ...".
func (s *Session) outputSummary() string {
	var b strings.Builder
	if noise := s.noise.String(); noise != "" {
		b.WriteString("; non-JSON output on stdout:\n")
		writeIndented(&b, noise)
	}
	if tail := s.stderr.Tail(stderrErrorLines); tail != "" {
		b.WriteString("; stderr tail:\n")
		writeIndented(&b, tail)
	}
	return b.String()
}

// Close stops the server and releases everything the session holds: it
// closes the server's stdin, waits up to a second for it to exit, sends
// SIGTERM to its process group, waits another second, then sends SIGKILL
// and reaps it; finally it kills whatever is left in the group. Calls in
// flight fail with ErrClosed. Close is idempotent and safe to call
// concurrently; it returns an error only if the process could not be reaped.
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

	// mcp-go's Close stops its transport and closes the stdin it was given,
	// which is ours; closing it again is harmless.
	_ = s.client.Close()
	_ = s.stdin.Close()

	var err error
	if !s.waitExit(closeGrace) {
		_ = signalGroup(s.pid, sigTerm)
		if !s.waitExit(closeGrace) {
			_ = signalGroup(s.pid, sigKill)
			if !s.waitExit(killWait) {
				err = fmt.Errorf("stop server %q: pid %d still running %s after SIGKILL", s.cfg.Name, s.pid, killWait)
			}
		}
	}
	// Children the server left in its group go too.
	_ = signalGroup(s.pid, sigKill)

	s.cancel()
	// Closing the writer gives mcp-go's reader EOF and unblocks a router
	// write in progress. (Closing the reader too would make mcp-go log a
	// spurious read error.)
	_ = s.toClient.Close()
	// A grandchild outside the group may still hold the pipes open: stop
	// reading rather than wait for it.
	waitUntil(s.stdoutDone, time.Now().Add(closeGrace))
	_ = s.stdout.Close()
	waitUntil(s.stderrDone, time.Now().Add(closeGrace))
	_ = s.errOut.Close()
	s.bg.Wait()
	return err
}

// waitExit waits up to d for the process to be reaped.
func (s *Session) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.exited:
		return true
	case <-t.C:
		return false
	}
}
