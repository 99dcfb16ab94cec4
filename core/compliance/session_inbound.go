package compliance

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// The inbound side of a Session: reading what the server writes, routing
// answers to the requests waiting for them, and answering the server's own
// requests.

// pump reads stdout until the process ends.
func (s *Session) pump() {
	defer close(s.pumpDone)
	for {
		l, err := s.proc.Next(time.Hour)
		if errors.Is(err, probe.ErrTimeout) {
			continue
		}
		if err != nil {
			return
		}
		s.markStarted()
		s.recorder().add("recv", l.Data)
		s.take(l.Data, func() {
			s.mu.Lock()
			s.nonJSON = append(s.nonJSON, l)
			s.mu.Unlock()
		})
	}
}

// take parses what the server sent (one object, or an array as a batch
// response) into the inbox; bad calls notJSON.
func (s *Session) take(data []byte, notJSON func()) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if ms, err := probe.ParseBatch(trimmed); err == nil {
			for _, m := range ms {
				s.deliver(m)
			}
			return
		}
	}
	m, err := probe.Parse(data)
	if err != nil {
		notJSON()
		return
	}
	s.deliver(m)
}

// maxInbox bounds the messages a session keeps, so a server flooding
// notifications cannot exhaust memory; later ones are dropped.
const maxInbox = 10000

// deliver files one message, answering server requests on the way.
func (s *Session) deliver(m *probe.Message) {
	s.mu.Lock()
	if len(s.received) >= maxInbox || s.isAbandoned(m) {
		s.mu.Unlock()
		return
	}
	s.received = append(s.received, m)
	if m.IsRequest() {
		s.requests = append(s.requests, m)
	}
	close(s.notify)
	s.notify = make(chan struct{})
	closed := s.closed
	s.mu.Unlock()
	if m.IsRequest() && !closed {
		s.answer(m)
	}
}

// answer replies to a request from the server: pings get the empty result
// the protocol demands; everything else is refused, since the checks
// declare no client capabilities.
func (s *Session) answer(m *probe.Message) {
	var reply []byte
	if m.Method == "ping" {
		reply = probe.Response(m.ID, map[string]any{})
	} else {
		reply = mustMarshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
			"error": map[string]any{"code": -32601, "message": "mcptest compliance probe declares no client capabilities"}})
	}
	if s.proc != nil {
		s.recorder().add("send", reply)
		_ = s.proc.WriteLine(reply, s.timeout)
		return
	}
	// Over HTTP the answer is a POST of its own; it must not hold up the
	// stream that carried the request.
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
		defer cancel()
		_, _ = s.post(ctx, reply, "", nil, nil)
	}()
}
