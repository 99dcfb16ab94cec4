package session

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// envelope is the part of a JSON-RPC message the router looks at.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result rawRef          `json:"result"`
	Error  json.RawMessage `json:"error"`
	Params json.RawMessage `json:"params"`
}

// source says where a routed message came from.
type source struct {
	// owner is the call whose HTTP response stream carried the message,
	// or nil (stdio, the standalone GET stream, the legacy SSE stream).
	owner *call
	// event and id are the SSE event type and id, when it came over SSE.
	event, id string
	// owned says the message's bytes are the router's to keep: its reader
	// does not reuse them, so a result is kept as a slice of the message
	// rather than copied out of it (a huge response is then held once).
	owned bool
}

// rawRef is a JSON value as a slice of the message it was decoded from:
// encoding/json hands UnmarshalJSON a slice of its input, which RawMessage
// would copy.
type rawRef []byte

// UnmarshalJSON implements json.Unmarshaler.
func (r *rawRef) UnmarshalJSON(b []byte) error {
	*r = b[:len(b):len(b)]
	return nil
}

// route handles one message from the server: a response to one of our calls
// goes to the waiting call; a server-to-client request is answered by the
// session from its mocks (serverreq.go); everything else (responses to
// mcp-go's own requests, notifications) goes to mcp-go. Each is also
// recorded on the call whose stream carried it, and notifications and
// requests on the running capture. A response whose id no request waits
// for (ours or mcp-go's) is a stray answer: it is kept in the stray log
// and not passed on. A message that cannot be decoded but names a waiting
// call's id fails that call; other non-JSON text goes to the noise log.
func (s *Session) route(msg []byte, src source) {
	at := time.Now()
	var env envelope
	err := json.Unmarshal(msg, &env)
	if err == nil && !src.owned {
		env.Result = bytes.Clone(env.Result)
	}
	if err != nil {
		if s.routeUndecodable(msg, err, at, src) {
			return
		}
		s.noise.add(msg)
		if src.owner != nil {
			src.owner.addFrame(s.frame(Received, at, msg, src.event, src.id))
		}
		return
	}
	if env.Method == "" && len(env.ID) > 0 {
		if c := s.takePending(string(env.ID)); c != nil {
			c.done <- reply{frame: s.frame(Received, at, msg, src.event, src.id), result: json.RawMessage(env.Result), rpcErr: env.Error, at: at}
			return
		}
		if !s.clientAnswered(string(env.ID)) {
			// No request waits for it: a wrong id, or an answer repeated
			// or sent after its call gave up. mcp-go would drop it
			// silently; it is kept for the diagnosis of a call that
			// times out meanwhile (waitHints).
			s.strays.add(msg)
			if src.owner != nil {
				src.owner.addFrame(s.frame(Received, at, msg, src.event, src.id))
			}
			return
		}
	}
	if src.owner != nil {
		src.owner.addFrame(s.frame(Received, at, msg, src.event, src.id))
	}
	if env.Method != "" && s.observe(msg, &env, src, at) {
		return // a request the session answered itself (serverreq.go)
	}
	s.forward(msg)
}

// forward passes msg to mcp-go, whose transport reads one message per line.
func (s *Session) forward(msg []byte) {
	body := wire.TrimNewline(msg)
	if bytes.IndexByte(body, '\n') >= 0 || bytes.IndexByte(body, '\r') >= 0 {
		// An SSE event may carry JSON spread over several data lines.
		var b bytes.Buffer
		if json.Compact(&b, body) == nil {
			msg = b.Bytes()
		}
	}
	if len(msg) == 0 || msg[len(msg)-1] != '\n' {
		msg = append(msg[:len(msg):len(msg)], '\n') // copy: never write into a reader's buffer
	}
	// A closed pipe means mcp-go is shut down; the message is dropped.
	_, _ = s.toClient.Write(msg)
}

// routeTooLong fails the call an over-long response was meant for, when its
// id can be found at the start of the message.
func (s *Session) routeTooLong(head []byte, size int) {
	at := time.Now()
	id := leadingID(head)
	if id == "" {
		s.noise.add(head)
		return
	}
	if c := s.takePending(id); c != nil {
		// Masked before the cut, as in frame: only the kept part and a
		// margin after it.
		if s.redact != nil {
			head = s.redact.ScrubBytes(head[:min(len(head), FrameLimit+wire.MaskMargin)])
		}
		f := newCutFrame(Received, at, head, size)
		c.done <- reply{frame: f, tooLong: size, at: at}
	}
}

// leadingID finds the top-level "id" of a JSON object from its first bytes,
// stopping at "result", "error" or "params", whose values may be cut off,
// and at "method": a request from the server is not a response to us.
func leadingID(head []byte) string {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		key, _ := tok.(string)
		if key == "result" || key == "error" || key == "params" || key == "method" {
			return ""
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return ""
		}
		if key == "id" {
			return string(v)
		}
	}
	return ""
}
