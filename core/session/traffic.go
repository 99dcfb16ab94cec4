package session

import (
	"encoding/json"
	"sync"
)

// Traffic ledger. The session notes every distinct message the client
// wrote to the server (requests, notifications, answers to the server's
// own requests), so that a caller can tell afterwards whether a stretch
// of use could have changed the server's state: core/servers keeps a
// process for the next test only when it could not (restart_policy
// after_write). The session only observes; what counts as a read is the
// caller's judgement.

// maxTraffic bounds the distinct entries the ledger keeps between two
// TakeTraffic calls; past it the ledger only says that it overflowed.
const maxTraffic = 256

// SentKind says what sort of message the client wrote.
type SentKind string

// The kinds of message a client writes.
const (
	// SentRequest is a request of the client (it has an id and a method).
	SentRequest SentKind = "request"
	// SentNotification is a notification of the client (a method, no id).
	SentNotification SentKind = "notification"
	// SentAnswer is the client's answer to a request of the server
	// (sampling, elicitation, roots, ping); Method is the server's
	// request's method.
	SentAnswer SentKind = "answer"
)

// Message is one distinct message the client wrote.
type Message struct {
	// Kind says whether it was a request, a notification or an answer.
	Kind SentKind
	// Method is the JSON-RPC method (for an answer, that of the request
	// answered; "input_required" for inputs answered in the modern era's
	// retry loop).
	Method string
	// Tool is the tool's name for tools/call; "" otherwise.
	Tool string
}

// Traffic is what the client wrote since the previous TakeTraffic (or
// since the session started).
type Traffic struct {
	// Sent lists each distinct message once, in the order first written.
	Sent []Message
	// Overflow is true when more distinct messages were written than the
	// ledger keeps: Sent is then incomplete.
	Overflow bool
}

// ledger is the session's record of Traffic.
type ledger struct {
	mu       sync.Mutex
	seen     map[Message]struct{}
	order    []Message
	overflow bool
}

// note records one message.
func (l *ledger) note(m Message) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.seen[m]; ok {
		return
	}
	if len(l.order) >= maxTraffic {
		l.overflow = true
		return
	}
	if l.seen == nil {
		l.seen = map[Message]struct{}{}
	}
	l.seen[m] = struct{}{}
	l.order = append(l.order, m)
}

// TakeTraffic returns what the client wrote since the previous call (or
// since the session started) and starts a new record.
func (s *Session) TakeTraffic() Traffic {
	l := &s.traffic
	l.mu.Lock()
	defer l.mu.Unlock()
	t := Traffic{Sent: l.order, Overflow: l.overflow}
	l.seen, l.order, l.overflow = nil, nil, false
	return t
}

// Alive reports whether the session can still carry calls: it was not
// closed, its process has not exited, and its transport did not fail.
func (s *Session) Alive() bool {
	if s.deathError() != nil {
		return false
	}
	exited, _ := s.Exited()
	return !exited
}

// noteRequest records a request the session itself sends; the tool's
// name is read from the params of tools/call.
func (s *Session) noteRequest(method string, params any) {
	m := Message{Kind: SentRequest, Method: method}
	if method == "tools/call" {
		switch p := params.(type) {
		case toolCallParams:
			m.Tool = p.Name
		case json.RawMessage:
			var named struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(p, &named)
			m.Tool = named.Name
		}
	}
	s.traffic.note(m)
}

// noteClientFrame records a message the mcp-go client wrote (the
// initialize handshake): a request or a notification, by whether it has
// an id.
func (s *Session) noteClientFrame(frame []byte) {
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(frame, &env) != nil {
		s.traffic.note(Message{Kind: SentNotification, Method: "(undecodable)"})
		return
	}
	switch {
	case env.Method == "":
		// An answer mcp-go wrote itself; the session answers the
		// server's requests, so this is not expected.
		s.traffic.note(Message{Kind: SentAnswer, Method: "(unknown)"})
	case len(env.ID) > 0 && string(env.ID) != "null":
		s.traffic.note(Message{Kind: SentRequest, Method: env.Method})
	default:
		s.traffic.note(Message{Kind: SentNotification, Method: env.Method})
	}
}

// noteInputs records the inputs a modern-era server asked for in an
// input_required result, which the session answers from its mocks: each
// is an answer to a server request of that method.
func (s *Session) noteInputs(requests map[string]json.RawMessage) {
	for _, raw := range requests {
		var req struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(raw, &req) != nil || req.Method == "" {
			req.Method = "input_required"
		}
		s.traffic.note(Message{Kind: SentAnswer, Method: req.Method})
	}
}
