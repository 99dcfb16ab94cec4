package compliance

import (
	"sync"

	"github.com/mcptest/mcptest/core/probe"
)

// Over stdio every check used to start the server afresh. Starting a
// Node.js server costs about a third of a CPU second, and a run has some
// thirty checks, so on a small machine the starts alone took longer than
// the checks. Checks that only send well-formed requests and wait for
// every answer leave the server as they found it, so they hand their
// initialized process on to the next such check instead of killing it.

// reusesProcess lists the checks that may take over an initialized stdio
// server from an earlier check and hand it on: they send nothing a client
// would not, change no session state that outlives them, do not depend
// on what the server printed at start-up, and wait for every answer.
// J09 may reuse because a session that saw a non-JSON stdout line is never
// handed on: a server that prints a banner is never reused at all. The
// handshake checks (L01-L04), checks that send malformed input, subscribe,
// set the log level, cancel, or watch for unprompted server requests
// always get a process of their own.
var reusesProcess = map[string]bool{
	"J01": true, "J02": true, "J03": true, "J04": true, "J07": true, "J09": true,
	"L05": true,
	"C01": true,
	"T01": true, "T02": true, "T03": true, "T04": true, "T05": true, "T06": true, "T07": true,
	"R01": true, "R02": true,
	"P01": true,
	"U01": true, "U03": true,
}

// sessionPool keeps idle initialized stdio sessions for reuse within one
// run. Everything left in it is closed when the run ends.
type sessionPool struct {
	mu     sync.Mutex
	idle   []*Session
	closed bool
}

// take hands an idle session to e, or nil when none is idle.
func (p *sessionPool) take(e *Env) *Session {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	if len(p.idle) == 0 {
		p.mu.Unlock()
		return nil
	}
	s := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	p.mu.Unlock()
	s.rebind(e)
	e.mu.Lock()
	e.sessions = append(e.sessions, s)
	e.mu.Unlock()
	return s
}

// put keeps s for a later check if it can be reused, and reports whether
// it did; the caller closes s otherwise.
func (p *sessionPool) put(s *Session) bool {
	if p == nil || !s.reusable() {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.idle = append(p.idle, s)
	return true
}

// close ends every idle session; sessions put afterwards are refused.
func (p *sessionPool) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, s := range idle {
		s.close()
	}
}

// reusable reports whether s can serve another check: an initialized
// stdio session whose server is still running and has answered every
// request sent on it, so nothing late can reach the next check.
func (s *Session) reusable() bool {
	if s.proc == nil || !s.initialized {
		return false
	}
	select {
	case <-s.pumpDone:
		return false
	default:
	}
	if _, exited := s.proc.ExitError(); exited {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.nonJSON) > 0 {
		return false
	}
	answered := map[string]bool{}
	for _, m := range s.received {
		if m.IsResponse() {
			answered[string(compactJSON(m.ID))] = true
		}
	}
	for id := range s.sent {
		if !answered[id] {
			return false
		}
	}
	return true
}

// rebind makes s part of e: its frames go to e's evidence, and what the
// earlier check received is forgotten.
func (s *Session) rebind(e *Env) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.env, s.rec = e, e.rec
	s.received, s.nonJSON, s.requests = nil, nil, nil
	s.taken = map[*probe.Message]bool{}
	s.sent = map[string]bool{}
}
