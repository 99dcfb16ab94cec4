package report

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// liveness is whether the reporters of a run take live events.
type liveness int

const (
	// liveNone: no reporter reads live events (all final-only or failed).
	liveNone liveness = iota
	// liveUnknown: none is known to, but one has not described itself yet.
	liveUnknown
	// liveYes: a reporter reads live events.
	liveYes
)

// liveLocked is the liveness of the emitter's streams taken together;
// e.mu is held.
func (e *Emitter) liveLocked() liveness {
	out := liveNone
	for _, s := range e.streams {
		if l := s.liveness(); l > out {
			out = l
		}
	}
	return out
}

// EmitOwned is Emit for an event that neither the caller nor anyone else
// changes after the call, nor anything it points to (a run_started
// header, a test_started header built for it). While no reporter has yet
// said whether it reads live events (their plugins start beside the
// servers), such an event is kept as it is rather than encoded: the first
// encoding of the report's types costs about a millisecond of reflection,
// which would otherwise come before the first server starts, and a run
// whose reporters all read only the final report never encodes it at all.
func (e *Emitter) EmitOwned(ctx context.Context, ev rpt.Event) {
	if ev.Type != rpt.EventRunFinished {
		e.mu.Lock()
		if e.liveLocked() == liveUnknown {
			e.owned = append(e.owned, ev)
			e.mu.Unlock()
			return
		}
		e.mu.Unlock()
	}
	e.Emit(ctx, ev)
}

// settleOwned encodes the owned events once a reporter reads live events,
// or drops them when none does; while some reporter is still starting they
// wait.
func (e *Emitter) settleOwned() {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch e.liveLocked() {
	case liveNone:
		e.owned = nil
	case liveYes:
		e.flushOwnedLocked()
	}
}

// flushOwnedLocked encodes and queues the owned events, in order; e.mu is
// held. A stream still starting queues them like any event, and drops
// them if it turns out to read only the final report.
func (e *Emitter) flushOwnedLocked() {
	owned := e.owned
	e.owned = nil
	for _, ev := range owned {
		e.pushLocked(ev)
	}
}

// pushLocked encodes ev and queues it for every stream; e.mu is held.
func (e *Emitter) pushLocked(ev rpt.Event) {
	b, ok := e.encodeLocked(ev)
	if !ok {
		return
	}
	final := ev.Type == rpt.EventRunFinished
	for _, s := range e.streams {
		s.push(b, final)
	}
}

// encode returns ev as its reporters receive it: JSON, secrets masked. A
// failure is recorded as a reporter error.
func (e *Emitter) encode(ev rpt.Event) ([]byte, bool) {
	b, err := json.Marshal(ev)
	if err != nil {
		e.record(nil, fmt.Errorf("encode %s event: %w", ev.Type, err))
		return nil, false
	}
	return e.redact.Bytes(b), true
}

// encodeLocked is encode with e.mu held.
func (e *Emitter) encodeLocked(ev rpt.Event) ([]byte, bool) {
	b, err := json.Marshal(ev)
	if err != nil {
		e.errs = append(e.errs, rpt.RunError{Source: "reporter", Message: e.redact.String(fmt.Sprintf("encode %s event: %v", ev.Type, err))})
		return nil, false
	}
	return e.redact.Bytes(b), true
}

// warmEncoder builds encoding/json's encoders of the report's types on a
// goroutine of its own, once per process: Open returns as the servers
// start, and the final report (or the first live event) would otherwise
// pay that reflection on the way to the user's prompt.
var warmEncoder = sync.OnceFunc(func() {
	go func() { _, _ = json.Marshal(rpt.Event{Test: &rpt.Test{}, Run: &rpt.Run{}}) }()
})
