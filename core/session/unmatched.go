package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
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
	size := len(trimNewline(msg))
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

// issued reports whether id is one the session's client could have used: an
// integer from 1 to the last id a call took (mcp-go numbers its own requests
// from 1). A response to such an id that no call waits for is late or
// repeated; any other id (a string, null, a number never sent) is a wrong
// one.
func (s *Session) issued(id json.RawMessage) bool {
	n, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && n >= 1 && n <= s.nextID.Load()
}

// waitHints explains a wait that timed out with what the server sent since
// the call started but no call could use: responses with a wrong id, and
// non-JSON lines. It returns "" when there was nothing, else "; ..." text.
func (s *Session) waitHints(since time.Time) string {
	var b strings.Builder
	if strays := s.strays.since(since); strays != "" {
		b.WriteString("; meanwhile the server sent responses whose id matches no request:\n")
		writeIndented(&b, strays)
	}
	if noise := s.noise.since(since); noise != "" {
		b.WriteString("; meanwhile the server wrote non-JSON output on stdout:\n")
		writeIndented(&b, noise)
	}
	return b.String()
}
