package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
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

// WaitFenced waits for a message match accepts that answers something
// just sent on the session, without waiting out a timeout when none is
// coming: it sends a ping (the fence) and stops once the ping's answer and
// a short grace have passed. A server answers messages on one connection
// in the order it read them, or at least has processed the earlier one
// by the time it answers the later, so silence is told by ordering.
//
// Over HTTP every reply is read whole before Send returns, so no fence is
// needed. The fence's own answer is never handed to match.
func (s *Session) WaitFenced(ctx context.Context, match func(*probe.Message) bool) (*probe.Message, error) {
	if s.proc == nil {
		return s.Wait(ctx, s.env.opts.Timeout, match)
	}
	id := fmt.Sprintf("%s%d", fencePrefix, s.newID())
	probeOnly := func(m *probe.Message) bool { return !isFence(m) && match(m) }
	fence := func(m *probe.Message) bool { return m.IsResponse() && m.HasID(id) }
	method := cheapMethod(s.env)
	var params any
	if p := s.withMeta(nil); p != nil {
		params = p
	}
	if _, err := s.Send(ctx, probe.Request(id, method, params), method, nil, nil); err != nil {
		return nil, err
	}
	m, err := s.Wait(ctx, s.env.opts.Timeout, func(m *probe.Message) bool { return probeOnly(m) || fence(m) })
	if err != nil || !fence(m) {
		return m, err
	}
	m, err = s.Wait(ctx, fenceGrace, probeOnly)
	if err != nil {
		return nil, errFenced
	}
	return m, nil
}
