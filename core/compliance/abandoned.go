package compliance

import "github.com/mcptest/mcptest/core/probe"

// A probe that a server got wrong by staying silent (J05's malformed
// JSON, J06's invalid requests, J08's batch) leaves requests on its
// session that were never answered. Once the server has answered a
// request sent after them, it has read past them: it handles one
// connection's messages in order, so it is not going to answer them. Such
// a session is as good as a fresh one, except for the odd server that
// answers out of order and late; the ids it passed over are therefore
// kept aside, and a late answer to one of them is recorded as evidence of
// the check that receives it but never reaches that check's inbox, where
// it could be mistaken for the answer to its own request or for a stray
// one. Handing the session on saves a server start per failed probe.

// settle marks every request sent on s that has not been answered as
// abandoned: the caller has just seen the server answer a later one.
func (s *Session) settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	answered := s.answeredIDs()
	for id := range s.sent {
		if !answered[id] {
			if s.abandoned == nil {
				s.abandoned = map[string]bool{}
			}
			s.abandoned[id] = true
		}
	}
}

// answeredIDs returns the ids of the responses received; s.mu is held.
func (s *Session) answeredIDs() map[string]bool {
	out := map[string]bool{}
	for _, m := range s.received {
		if m.IsResponse() {
			out[string(compactJSON(m.ID))] = true
		}
	}
	return out
}

// isAbandoned reports whether m answers a request settle set aside;
// s.mu is held. An answer with a null id is never set aside: it is how a
// server answers any message whose id it could not read (J08's batch
// refusal, say), so it cannot be told to belong to an earlier request.
func (s *Session) isAbandoned(m *probe.Message) bool {
	if !m.IsResponse() || m.ID == nil || m.IDIsNull() {
		return false
	}
	return s.abandoned[string(compactJSON(m.ID))]
}
