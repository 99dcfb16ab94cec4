package session

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// In the modern era the client mocks answer input requests instead of
// server-to-client requests: the same Mocks build the same answers, a
// running capture records each request and answer as it does for the
// legacy requests, and the capabilities the legacy handshake would declare
// are declared on every request.

// setupModernMocks declares the session's client features on every modern
// request and answers input requests with its mocks.
func (s *Session) setupModernMocks() {
	caps := s.opts.client.declared()
	if b, err := json.Marshal(caps); err == nil {
		s.clientCaps = b
	}
	s.inputs = s.answerInputs
}

// answerInputs is the session's InputHandler: each input request is
// answered by the capture's mocks over the session's, and recorded on the
// running capture. A request the mocks cannot answer fails the call with
// the mocks' reason: MRTR has no per-request error to send back.
func (s *Session) answerInputs(_ context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	capture := s.capture()
	mocks := s.opts.client.Mocks
	if capture != nil {
		mocks = capture.opts.Mocks.Over(mocks)
	}
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]json.RawMessage, len(requests))
	for _, k := range keys {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(requests[k], &req); err != nil {
			return nil, fmt.Errorf("input request %q is not a request: %w", k, err)
		}
		at := time.Now()
		params := rawOrNil(req.Params)
		result, rpcErr := mocks.Answer(req.Method, params)
		if capture != nil {
			capture.add(Event{At: at, Method: req.Method, Params: params, Request: true, Response: answerEnvelope(result, rpcErr)}, nil)
		}
		if rpcErr != nil {
			return nil, fmt.Errorf("input request %q (%s): %s", k, Sanitize(wire.Cut(req.Method, 100)), Sanitize(rpcErr.Message))
		}
		out[k] = result
	}
	return out, nil
}
