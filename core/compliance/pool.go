package compliance

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/mcptest/mcptest/core/probe"
)

// Over stdio every check used to start the server afresh. Starting a
// Node.js server costs about 0.4 CPU seconds, and a run has some thirty
// checks, so on a small machine the starts alone took longer than the
// checks. Now every initialized server a check leaves in good order goes
// to a pool, and every check that does not need a server nobody has
// spoken to takes one from there. Each check has one of four roles.

// poolRole says how a check shares stdio server processes.
type poolRole uint8

const (
	// roleOwn: a process of its own, closed when the check ends (the
	// default, e.g. the modern era's checks).
	roleOwn poolRole = iota
	// roleReuse: takes an initialized server from the pool and hands it
	// on. These checks send nothing a client would not, change no session
	// state that outlives them, do not depend on what the server printed
	// at start-up, and wait for every answer. J09 may reuse because a
	// session that saw a non-JSON stdout line is never handed on: a
	// server that prints a banner is never reused at all.
	roleReuse
	// roleFresh: needs a server nobody has spoken to (the handshake
	// checks, and C02, which watches for requests sent right after it),
	// but what it leaves is an ordinary initialized server, so it hands
	// that on.
	roleFresh
	// roleProbe: sends something unusual (malformed input, a subscription,
	// a log level, a cancellation). It may start on a pooled server, and
	// hands it on when the check passed: a server that handled the
	// message as the spec says has nothing left over from it (a refused
	// log level is not set, a subscription is taken back, a parse error
	// changes nothing). A server that got it wrong is handed on only when
	// the check knows the message could not have changed its state
	// (Env.unchanged: malformed JSON, an invalid request or a batch of
	// pings that went unanswered, a refused log level) and the server has
	// read past it (see settle); otherwise it is closed with the check,
	// so whatever state it is in reaches no other check.
	roleProbe
)

// processRoles gives each check's role; a check not listed has roleOwn.
var processRoles = map[string]poolRole{
	"J01": roleReuse, "J02": roleReuse, "J03": roleReuse, "J04": roleReuse, "J07": roleReuse, "J09": roleReuse,
	"L05": roleReuse,
	"C01": roleReuse,
	"T01": roleReuse, "T02": roleReuse, "T03": roleReuse, "T04": roleReuse, "T05": roleReuse, "T06": roleReuse, "T07": roleReuse,
	"R01": roleReuse, "R02": roleReuse,
	"P01": roleReuse,
	"U01": roleReuse, "U03": roleReuse,

	"L01": roleFresh, "L02": roleFresh, "L03": roleFresh, "L04": roleFresh,
	"C02": roleFresh,

	"J05": roleProbe, "J06": roleProbe, "J08": roleProbe,
	"R03": roleProbe, "U02": roleProbe, "U04": roleProbe,
}

// prio is the priority of the starts of check id in role r (see
// prioFirst).
func (r poolRole) prio(id string) int {
	switch {
	case r == roleFresh:
		return prioFresh
	case slowStarters[id]:
		return prioSlow
	}
	return prioOther
}

// takes reports whether a check in role r may start on a pooled server.
func (r poolRole) takes() bool { return r == roleReuse || r == roleProbe }

// handsOn reports whether a check in role r gives its servers to the pool
// when it ends; passed says whether the check passed, unchanged whether it
// knows it left the server's state as it found it.
func (r poolRole) handsOn(passed, unchanged bool) bool {
	return r == roleReuse || r == roleFresh || (r == roleProbe && (passed || unchanged))
}

// sessionPool keeps idle initialized stdio sessions for reuse within one
// run, and bounds how many servers start at once. Everything left in it
// is closed when the run ends.
type sessionPool struct {
	// slots is how many servers may be starting at once; 0 means the
	// number of CPUs.
	slots int

	mu       sync.Mutex
	idle     []*Session
	closed   bool
	starting int
	// borrowed counts the brief checks (see Env.brief) holding a server.
	borrowed int
	// queue holds the tickets of the calls waiting for a start slot, in
	// the order they are served (see startTicket); tickets numbers them.
	queue   []startTicket
	tickets int
	// pristine is discovery's server, kept for C02 (see keepPristine).
	pristine *Session
	// spares are servers started for the checks that need one nobody has
	// spoken to, before those checks ask; reserved counts the spares
	// still waiting for a start slot (see reserve).
	spares   []*Session
	reserved int
	// bg tracks the goroutines starting spares, so close can wait for
	// them and no server starts after the run.
	bg sync.WaitGroup
	// changed is closed and replaced whenever a session is put back or a
	// start slot is freed, waking the checks waiting for either.
	changed chan struct{}
}

// acquire gets a check a server: an idle one from the pool when take is
// set and there is one, or else the right to start one (release frees
// that right; call it once the server has answered, or failed to). A start
// costs CPU (a Node.js server spends about 0.4 s of it before it answers
// initialize), so starting more servers at once than there are CPUs makes
// every start slower and, on a loaded machine, pushes the handshakes past
// --timeout; a check that could take a server waits for whichever comes
// first, a server put back or a free slot.
func (p *sessionPool) acquire(ctx context.Context, e *Env, take bool) (s *Session, release func(), err error) {
	if p == nil {
		return nil, func() {}, nil
	}
	limit := p.slots
	if limit <= 0 {
		limit = runtime.NumCPU()
	}
	// ticket is this call's place in the queue for a start slot, 0 while
	// it has not asked for one. Slots go out by priority, then first come,
	// first served, so a check that needs several starts (L02) is not
	// passed over by every check that asks after it.
	ticket := 0
	leave := func() {
		if ticket != 0 {
			p.queue = slices.DeleteFunc(p.queue, func(t startTicket) bool { return t.n == ticket })
			p.wake()
		}
	}
	for {
		p.mu.Lock()
		if p.changed == nil {
			p.changed = make(chan struct{})
		}
		if p.closed {
			leave()
			p.mu.Unlock()
			return nil, nil, errPoolClosed
		}
		if take && len(p.idle) > 0 {
			s = p.idle[len(p.idle)-1]
			p.idle = p.idle[:len(p.idle)-1]
			p.borrow(e)
			leave()
			p.mu.Unlock()
			s.rebind(e)
			e.mu.Lock()
			e.sessions = append(e.sessions, s)
			e.mu.Unlock()
			return s, nil, nil
		}
		others := p.borrowed
		if e.borrowing {
			others--
		}
		// A brief check that finds no idle server waits for one while
		// other brief checks hold theirs: they end within a few hundred
		// milliseconds and most hand their server on, which is cheaper
		// than starting another. With none out, it starts one.
		if !(take && e.brief && others > 0) {
			if ticket == 0 {
				p.tickets++
				ticket = p.tickets
				p.enqueue(startTicket{n: ticket, prio: e.prio})
			}
			if p.starting < limit && p.queue[0].n == ticket {
				p.starting++
				if take {
					p.borrow(e)
				}
				leave()
				p.mu.Unlock()
				var once sync.Once
				return nil, func() { once.Do(p.startEnded) }, nil
			}
		}
		wait := p.changed
		p.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			p.mu.Lock()
			leave()
			p.mu.Unlock()
			return nil, nil, fmt.Errorf("waiting for a server to start: %w", ctx.Err())
		}
	}
}

// borrow counts e among the brief checks holding a server; p.mu is held.
func (p *sessionPool) borrow(e *Env) {
	if e.brief && !e.borrowing {
		e.borrowing = true
		p.borrowed++
	}
}

// giveBack ends e's count among the brief checks holding a server, once
// its servers are back in the pool or closed.
func (p *sessionPool) giveBack(e *Env) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !e.borrowing {
		return
	}
	e.borrowing = false
	p.borrowed--
	p.wake()
}

// startEnded frees a start slot.
func (p *sessionPool) startEnded() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starting--
	p.wake()
}

// wake tells waiting checks that something changed; p.mu is held.
func (p *sessionPool) wake() {
	if p.changed != nil {
		close(p.changed)
	}
	p.changed = make(chan struct{})
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
	p.wake()
	return true
}

// keepPristine sets s, a server that has done nothing but the handshake,
// aside for C02 and reports whether it did (not without a pool).
func (p *sessionPool) keepPristine(s *Session) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pristine = s
	return true
}

// takePristine hands e the server kept by keepPristine, with everything
// it has received since it started, or nil when there is none. Its frames
// so far went to discovery's evidence; the handshake's are replayed into
// e's.
func (p *sessionPool) takePristine(e *Env) *Session {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	s := p.pristine
	p.pristine = nil
	p.mu.Unlock()
	if s == nil {
		return nil
	}
	e.opts.hellos.recall(e, e.opts.Revision)
	s.mu.Lock()
	s.env, s.rec = e, e.rec
	s.mu.Unlock()
	e.mu.Lock()
	e.sessions = append(e.sessions, s)
	e.mu.Unlock()
	return s
}

// close ends every idle session; sessions put afterwards are refused.
func (p *sessionPool) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.closed = true
	p.wake()
	p.mu.Unlock()
	// A spare being started sees closed once it has its process and
	// closes it itself; after this wait none is left starting.
	p.bg.Wait()
	p.mu.Lock()
	idle := append(p.idle, p.spares...)
	if p.pristine != nil {
		idle = append(idle, p.pristine)
	}
	p.idle, p.pristine, p.spares = nil, nil, nil
	p.mu.Unlock()
	for _, s := range idle {
		s.close()
	}
}

// reusable reports whether s can serve another check: an initialized
// stdio session whose server is still running and has answered every
// request sent on it or passed it over (see settle), so nothing late can
// reach the next check.
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
	answered := s.answeredIDs()
	for id := range s.sent {
		if !answered[id] && !s.abandoned[id] {
			return false
		}
	}
	return true
}

// quiesce makes sure whatever the server sends in reaction to the check
// that is handing s on reaches that check, not the next: it sends a ping
// and waits for the answer. A server handles one connection's messages in
// order, so by then it has sent what they caused, such as the
// notifications/tools/list_changed server-everything sends once the
// handshake completes. It reports whether the server answered; one that
// does not is not handed on.
func (s *Session) quiesce() bool {
	if s.proc == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.env.opts.Timeout)
	defer cancel()
	r, err := s.Call(ctx, cheapMethod(s.env), nil)
	return err == nil && r.Msg != nil && r.Msg.Error == nil
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
