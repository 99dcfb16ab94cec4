package compliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// fenceGrace is how long a fenced wait still watches after the fence's
// answer came back. A server that reads its input in order has handled
// the probe by then; the grace covers servers that dispatch each message
// to its own worker, where a parse error may be written a moment after a
// ping that was read later.
const fenceGrace = 150 * time.Millisecond

// errFenced means the server answered the fence ping but nothing that
// answers the probe sent before it: the probe went unanswered.
var errFenced = fmt.Errorf("%w: the server answered a ping sent after it, but not this message", errNoResponse)

// fencePrefix starts the id of every fence request.
const fencePrefix = "mcptest-fence-"

// isFence reports whether m answers a fence request, so that a check
// waiting for "any response" never mistakes one for its own.
func isFence(m *probe.Message) bool {
	var id string
	return m.IsResponse() && json.Unmarshal(m.ID, &id) == nil && strings.HasPrefix(id, fencePrefix)
}

// fenceRetry is how long a fenced wait gives the first fence before it
// sends another, doubling each time. A server whose parser is still
// waiting for the rest of a truncated JSON text (Go's streaming decoder,
// say) takes the fence ping as part of that text and answers nothing; the
// next ping completes the garbage into a syntax error, which such a server
// either answers or dies of. Either way the wait ends at once instead of
// running out the run's --timeout.
const fenceRetry = 250 * time.Millisecond

// WaitFenced waits for a message match accepts that answers something
// just sent on the session, without waiting out a timeout when none is
// coming: it sends a ping (the fence) and stops once the ping's answer and
// a short grace have passed. A server answers messages on one connection
// in the order it read them, or at least has processed the earlier one
// by the time it answers the later, so silence is told by ordering. While
// no fence is answered, another is sent after fenceRetry, then after twice
// that, and so on; the run's --timeout still bounds the whole wait, for a
// server that answers no ping at all.
//
// Over HTTP every reply is read whole before Send returns, so no fence is
// needed. No fence's answer is ever handed to match.
func (s *Session) WaitFenced(ctx context.Context, match func(*probe.Message) bool) (*probe.Message, error) {
	if s.proc == nil {
		return s.Wait(ctx, s.env.opts.Timeout, match)
	}
	probeOnly := func(m *probe.Message) bool { return !isFence(m) && match(m) }
	var mu sync.Mutex
	fences := map[string]bool{}
	fence := func(m *probe.Message) bool {
		var id string
		if !m.IsResponse() || json.Unmarshal(m.ID, &id) != nil {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		return fences[id]
	}
	method := cheapMethod(s.env)
	var params any
	if p := s.withMeta(nil); p != nil {
		params = p
	}
	send := func() error {
		id := fmt.Sprintf("%s%d", fencePrefix, s.newID())
		mu.Lock()
		fences[id] = true
		mu.Unlock()
		_, err := s.Send(ctx, probe.Request(id, method, params), method, nil, nil)
		return err
	}
	if err := send(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(s.env.opts.Timeout)
	step := fenceRetry
	for {
		left := time.Until(deadline)
		wait := min(step, left)
		m, err := s.Wait(ctx, wait, func(m *probe.Message) bool { return probeOnly(m) || fence(m) })
		switch {
		case err == nil && !fence(m):
			return m, nil
		case err == nil:
			m, err = s.Wait(ctx, fenceGrace, probeOnly)
			if err != nil {
				// The server has read past the probe without answering it.
				s.settle()
				return nil, errFenced
			}
			return m, nil
		case !errors.Is(err, errWaitTimedOut) || wait == left:
			// The server exited, the check ended, or --timeout ran out.
			if wait == left && errors.Is(err, errWaitTimedOut) {
				err = fmt.Errorf("%w (waited %s)", errWaitTimedOut, s.env.opts.Timeout)
			}
			return nil, err
		}
		// Nothing yet: another fence. A write that fails means the server
		// has gone, which the next wait reports.
		_ = send()
		step *= 2
	}
}
