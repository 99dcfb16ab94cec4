package report

import (
	"sync"

	"github.com/mcptest/mcptest/sdk"
)

// stream is one report being rendered: the events queued for its
// reporter, the goroutine that sends them, and where the output goes.
//
// Events are queued rather than sent by the caller so that a slow or
// stalled reporter never holds up the test workers that emit them, nor
// the other reporters; the sender alone waits on the plugin, within the
// deadlines of plugin.RenderStream.
type stream struct {
	out  Output
	rs   renderer
	dest *destination
	// terminal describes the primary output when it is standard output.
	terminal sdk.Terminal

	mu   sync.Mutex
	wake *sync.Cond
	// finalOnly: the reporter reads only run_finished (its plugin says
	// so), so the live events are not sent to it. Until the plugin has
	// described itself, events are queued as if it read them all.
	finalOnly bool
	// known: the plugin has described itself (or could not), so finalOnly
	// is what it will stay.
	known  bool
	queue  []queued
	ending bool
	failed bool
	done   chan struct{}
}

// queued is one encoded event waiting for the reporter.
type queued struct {
	b     []byte
	final bool
}

func newStream(out Output) *stream {
	s := &stream{out: out, done: make(chan struct{})}
	s.wake = sync.NewCond(&s.mu)
	return s
}

// push queues one encoded event (final: run_finished); it never blocks on
// the reporter.
func (s *stream) push(b []byte, final bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed || s.ending || (s.finalOnly && !final) {
		return
	}
	s.queue = append(s.queue, queued{b: b, final: final})
	s.wake.Signal()
}

// setFinalOnly records that the reporter reads only the final report, and
// drops the live events queued before it said so.
func (s *stream) setFinalOnly(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finalOnly = v
	if v {
		kept := s.queue[:0]
		for _, q := range s.queue {
			if q.final {
				kept = append(kept, q)
			}
		}
		s.queue = kept
	}
}

// end says no event will follow; the sender then closes the render.
func (s *stream) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ending = true
	s.wake.Signal()
}

// setKnown records that finalOnly is settled.
func (s *stream) setKnown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.known = true
}

// liveness says whether the stream takes live events: liveNone (failed,
// or final-only), liveYes, or liveUnknown while its plugin has not yet
// described itself.
func (s *stream) liveness() liveness {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.failed || s.finalOnly:
		return liveNone
	case s.known:
		return liveYes
	}
	return liveUnknown
}

// live reports whether the stream still takes live events.
func (s *stream) live() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.failed && !s.finalOnly
}

// markFailed stops the stream taking events and drops those queued.
func (s *stream) markFailed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = true
	s.queue = nil
}

// send is the stream's sender: it sends the queued events in order, then
// closes the render and commits or discards the output. fail records a
// failure of the reporter or of its output.
func (s *stream) send(fail func(*stream, error)) {
	defer close(s.done)
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.ending {
			s.wake.Wait()
		}
		batch := s.queue
		s.queue = nil
		failed := s.failed
		s.mu.Unlock()
		if len(batch) == 0 {
			break
		}
		if failed {
			continue
		}
		for _, q := range batch {
			if err := s.rs.Send(q.b); err != nil {
				s.markFailed()
				fail(s, err)
				break
			}
		}
	}
	s.mu.Lock()
	failed := s.failed
	s.mu.Unlock()
	if !failed {
		if err := s.rs.Close(); err != nil {
			s.markFailed()
			fail(s, err)
			failed = true
		}
	} else {
		s.rs.Abort()
	}
	if failed {
		// An incomplete report must not replace an earlier one.
		s.dest.discard()
		return
	}
	if err := s.dest.commit(); err != nil {
		fail(s, err)
	}
}
