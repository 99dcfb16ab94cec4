package compliance

import (
	"context"
	"errors"
	"slices"

	"github.com/mcptest/mcptest/core/probe"
)

// The handshake checks need servers nobody has spoken to: L02 one for
// every legacy revision other than the run's, L03 and L04 one each. The
// run knows that as soon as it starts, so it starts those servers (the
// spares) before the checks ask, at a priority above every other start:
// the start slots are then busy from the first moment, and a handshake
// check that begins finds its server already starting, or ready, instead
// of queueing behind the checks that started before it. The first spare
// starts beside discovery's server, whose answer the whole run waits for.

// errPoolClosed means the run ended while a start was waiting for a slot.
var errPoolClosed = errors.New("the run has ended")

// Start priorities, highest first: a free slot goes to the waiting start
// with the lowest value, the longest waiting among equals.
const (
	// prioFirst: discovery's server and the first spare.
	prioFirst = iota
	// prioFresh: the other spares, and a handshake check's own start when
	// no spare is left.
	prioFresh
	// prioSlow: T05 and U03, which may wait out a slow tool; they still
	// take a server handed on before their turn comes.
	prioSlow
	// prioOther: everything else.
	prioOther
)

// startTicket is one call waiting for a start slot.
type startTicket struct{ n, prio int }

// enqueue adds t to the queue in serving order; p.mu is held.
func (p *sessionPool) enqueue(t startTicket) {
	i, _ := slices.BinarySearchFunc(p.queue, t, func(a, b startTicket) int {
		if a.prio != b.prio {
			return a.prio - b.prio
		}
		return a.n - b.n
	})
	p.queue = slices.Insert(p.queue, i, t)
}

// freshStarts is how many servers nobody has spoken to the selected
// handshake checks will ask for, beyond discovery's (whose answer to the
// run's revision L01-L03 recall); 0 on the modern era, which has none.
func freshStarts(opts *Options) int {
	if probe.IsModern(opts.Revision) {
		return 0
	}
	n := 0
	for _, id := range opts.selected {
		switch id {
		case "L02":
			for _, rev := range probe.LegacyRevisions {
				if rev != opts.Revision {
					n++
				}
			}
		case "L03", "L04":
			n++
		}
	}
	return n
}

// reserve starts n spares in the background, each as soon as a start slot
// is free; the first has the priority of discovery's start.
func (p *sessionPool) reserve(ctx context.Context, t Target, opts *Options, n int) {
	if p == nil || n <= 0 {
		return
	}
	p.mu.Lock()
	p.reserved += n
	if p.changed == nil {
		p.changed = make(chan struct{})
	}
	p.mu.Unlock()
	for i := range n {
		prio := prioFresh
		if i == 0 {
			prio = prioFirst
		}
		p.bg.Add(1)
		go func() {
			defer p.bg.Done()
			p.startSpare(ctx, t, opts, prio)
		}()
	}
}

// startSpare waits for a slot and starts one spare. The spare is sent
// nothing until a check takes it (takeSpare); it holds its slot until it
// has shown it is up.
func (p *sessionPool) startSpare(ctx context.Context, t Target, opts *Options, prio int) {
	e := &Env{Revision: opts.Revision, Transport: Stdio, target: t, opts: opts, rec: newRecorder(opts.Redact), prio: prio}
	var s *Session
	_, release, err := p.acquire(ctx, e, false)
	if err == nil {
		s, err = e.newSession(ctx, release)
		if err != nil {
			release()
		}
	}
	p.mu.Lock()
	p.reserved--
	p.wake()
	closed := p.closed
	if err == nil && !closed {
		p.spares = append(p.spares, s)
	}
	p.mu.Unlock()
	if err == nil && closed {
		// The run ended while it started. Closing it here, before this
		// goroutine ends, hands its stop to the reaper before the run
		// waits for the reaper (close waits for this goroutine first).
		s.close()
	}
}

// takeSpare hands e a spare, with everything it has printed so far (its
// frames replayed into e's evidence), or nil when there is none. A check
// that needs a server nobody has spoken to (wait) waits for a spare still
// to start rather than start one itself, since the spare is ahead of it
// in the queue for slots; any other check takes one only when the
// handshake checks will not need it.
func (p *sessionPool) takeSpare(ctx context.Context, e *Env, wait bool) *Session {
	if p == nil {
		return nil
	}
	var s *Session
	for {
		p.mu.Lock()
		if len(p.spares) > 0 {
			// The oldest is the likeliest to be up already.
			s = p.spares[0]
			p.spares = p.spares[1:]
			if e.take {
				p.borrow(e)
			}
			p.mu.Unlock()
			break
		}
		if !wait || p.reserved == 0 || p.closed {
			p.mu.Unlock()
			return nil
		}
		changed := p.changed
		p.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil
		}
	}
	s.mu.Lock()
	old := s.rec
	s.env, s.rec = e, e.rec
	s.rev, s.modern = e.Revision, probe.IsModern(e.Revision)
	s.mu.Unlock()
	for _, f := range old.list() {
		e.rec.add(f.Direction, f.Data)
	}
	e.mu.Lock()
	e.sessions = append(e.sessions, s)
	e.mu.Unlock()
	return s
}
