package session

import (
	"context"
	"encoding/json"
	"time"
)

// answerTimeout bounds writing the answer to a server's request.
const answerTimeout = 10 * time.Second

// observe handles a notification or request the server sent (env has a
// method): it is recorded on the running capture, or, with none, on the
// calls in flight when it came outside their response streams. A request
// is answered here, from the mocks, and observe reports true: mcp-go must
// not answer it too. Notifications go on to mcp-go.
func (s *Session) observe(msg []byte, env *envelope, src source, at time.Time) bool {
	isRequest := len(env.ID) > 0 && string(env.ID) != "null"
	capture := s.capture()
	var f *Frame
	if src.owner == nil {
		fr := s.frame(Received, at, msg, src.event, src.id)
		f = &fr
	}
	params := rawOrNil(env.Params)
	if !isRequest {
		switch {
		case capture != nil:
			capture.add(Event{At: at, Method: env.Method, Params: params}, f)
		case f != nil:
			s.addAmbient(*f)
		}
		return false
	}

	mocks := s.opts.client.Mocks
	if capture != nil {
		mocks = capture.opts.Mocks.Over(mocks)
	}
	result, rpcErr := mocks.Answer(env.Method, params)
	frame := response(env.ID, result, rpcErr)
	sent := s.frame(Sent, time.Now(), frame, "", "")
	if capture != nil {
		capture.add(Event{At: at, Method: env.Method, Params: params, Request: true, Response: answerEnvelope(result, rpcErr)}, f)
	}
	// The answer is recorded where the request was.
	switch {
	case src.owner != nil:
		src.owner.addFrame(sent)
	case capture != nil:
		capture.addFrame(sent)
	default:
		s.addAmbient(*f)
		s.addAmbient(sent)
	}
	s.traffic.note(Message{Kind: SentAnswer, Method: env.Method})
	s.sendAnswer(frame)
	return true
}

// answerEnvelope is an answer as a capture records it: {"result": ...} or
// {"error": ...}, the shape of a test's own envelope.
func answerEnvelope(result json.RawMessage, rpcErr *RPCError) json.RawMessage {
	var b []byte
	if rpcErr != nil {
		b, _ = json.Marshal(map[string]any{"error": rpcErr})
	} else {
		b, _ = json.Marshal(map[string]json.RawMessage{"result": result})
	}
	return b
}

// sendAnswer writes the answer to a server's request in the background:
// the router must not wait on the server it reads from.
func (s *Session) sendAnswer(frame []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, answerTimeout)
		defer cancel()
		_ = s.t.Send(ctx, frame, nil)
	}()
}

// rawOrNil returns raw, or nil when it is empty or null.
func rawOrNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}

// response builds a JSON-RPC response frame.
func response(id, result json.RawMessage, rpcErr *RPCError) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *RPCError       `json:"error,omitempty"`
	}{"2.0", id, result, rpcErr})
	return append(b, '\n')
}
