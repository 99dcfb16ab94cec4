package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// routeUndecodable handles a message json.Unmarshal rejected (err): broken
// JSON, or JSON nested deeper than encoding/json accepts. If it is a
// response naming a waiting call's id, that call fails at once with
// ErrBadResponse rather than waiting for a timeout; routeUndecodable then
// reports true. Otherwise the caller logs the message as noise.
func (s *Session) routeUndecodable(msg []byte, err error, at time.Time, src source) bool {
	id := undecodableID(msg)
	if id == "" {
		return false
	}
	c := s.takePending(id)
	if c == nil {
		return false
	}
	size := len(wire.TrimNewline(msg))
	c.done <- reply{
		frame: s.frame(Received, at, msg, src.event, src.id),
		bad:   fmt.Errorf("%w: the response (%d bytes) cannot be decoded: %v", ErrBadResponse, size, err),
		at:    at,
	}
	return true
}

// undecodableID finds the top-level id of a message that may be malformed or
// nested beyond encoding/json's depth limit: it walks the top-level members
// token by token (tokens have no depth limit) until the message breaks. It
// returns "" for a message that is not an object, has no readable id, or
// has a method (a request or notification, not a response).
func undecodableID(msg []byte) string {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	id := ""
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch key, _ := tok.(string); key {
		case "method":
			return ""
		case "id":
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return id
			}
			id = string(v)
			continue
		}
		if skipValue(dec) != nil {
			break
		}
	}
	return id
}

// skipValue consumes the next value of dec, however deeply nested.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// expectClientAnswer records the id of msg when it is a request of mcp-go's
// own (initialize), whose answer the router must pass to mcp-go, and
// returns it ("" for anything else: notifications, answers to the server).
func (s *Session) expectClientAnswer(msg []byte) string {
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &env) != nil || env.Method == "" || len(env.ID) == 0 || string(env.ID) == "null" {
		return ""
	}
	id := string(env.ID)
	s.mu.Lock()
	s.clientPending[id] = struct{}{}
	s.mu.Unlock()
	return id
}

// clientAnswered forgets a request of mcp-go's recorded by
// expectClientAnswer; it reports whether id was still waiting.
func (s *Session) clientAnswered(id string) bool {
	if id == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.clientPending[id]
	delete(s.clientPending, id)
	return ok
}

// waitHints explains a wait that timed out with what the server sent since
// the call started but no call could use: stray answers (responses whose id
// no request waits for: a wrong id, a repeated or late answer), and
// non-JSON lines. It returns "" when there was nothing, else "; ..." text.
func (s *Session) waitHints(since time.Time) string {
	var b strings.Builder
	if strays := s.strays.since(since); strays != "" {
		b.WriteString("; meanwhile the server sent stray answers (responses whose id matches no pending request):\n")
		wire.WriteIndented(&b, strays)
	}
	if noise := s.noise.since(since); noise != "" {
		b.WriteString("; meanwhile the server wrote non-JSON output on stdout:\n")
		wire.WriteIndented(&b, noise)
	}
	return b.String()
}
