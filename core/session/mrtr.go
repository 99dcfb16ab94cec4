package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// In the modern era a server that needs something from the client in the
// middle of a request (an LLM completion, an answer from the user, the
// client's roots) does not send a request of its own: it answers with a
// result whose resultType is "input_required", listing inputRequests, and
// the client retries the original request with inputResponses and the
// echoed requestState (multi round-trip requests, MRTR).

// ErrInputRequired is wrapped by the error of a modern-era call whose
// server asked for input (resultType "input_required") that the session
// cannot give: no InputHandler is set, or the handler failed. It is never
// a pass: the Outcome holds the server's input_required result.
var ErrInputRequired = errors.New("server asked for input (MRTR)")

// resultInputRequired is the resultType of an MRTR answer.
const resultInputRequired = "input_required"

// maxInputRounds bounds the retries of one call whose server keeps asking
// for input.
const maxInputRounds = 10

// InputHandler answers the input requests of an input_required result:
// requests maps each key the server chose to its request ({"method": ...,
// "params": ...}), and the handler returns the response (the result
// object) for each key it can answer. An error fails the call with
// ErrInputRequired and the handler's reason.
//
// It is the hook where the client mocks (sampling, elicitation, roots)
// plug into the modern era; Session.inputs holds it.
type InputHandler func(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error)

// inputRequired is the MRTR part of a result.
type inputRequired struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  *string                    `json:"requestState"`
}

// do sends one request and waits for its answer (roundTrip). On a
// modern-era session the request carries the protocol _meta, and an
// input_required answer is either answered through the session's
// InputHandler and retried, or turned into an ErrInputRequired failure:
// it is never mistaken for the final result.
func (s *Session) do(ctx context.Context, label, method string, params any) (*Outcome, error) {
	s.noteRequest(method, params)
	if !s.opts.modern() {
		return s.roundTrip(ctx, label, method, params)
	}
	stamped, err := s.withModernMeta(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	out, err := s.roundTrip(ctx, label, method, stamped)
	for round := 1; err == nil && out.RPCError == nil; round++ {
		var ir inputRequired
		if json.Unmarshal(out.Result, &ir) != nil || ir.ResultType != resultInputRequired {
			return out, nil
		}
		if s.inputs == nil {
			return out, fmt.Errorf("%s: %w, and no client mock is declared to answer it: %s", label, ErrInputRequired, describeInputs(ir))
		}
		if round > maxInputRounds {
			return out, fmt.Errorf("%s: %w: still asking after %d rounds", label, ErrInputRequired, maxInputRounds)
		}
		s.noteInputs(ir.InputRequests)
		responses, herr := s.inputs(ctx, ir.InputRequests)
		if herr != nil {
			return out, fmt.Errorf("%s: %w: %s: %w", label, ErrInputRequired, describeInputs(ir), herr)
		}
		retry, rerr := retryParams(stamped, responses, ir.RequestState)
		if rerr != nil {
			return out, fmt.Errorf("%s: %w", label, rerr)
		}
		prev := out
		out, err = s.roundTrip(ctx, label, method, retry)
		if out != nil {
			// One call, several exchanges: the report shows them all.
			out.Frames = append(prev.Frames[:len(prev.Frames):len(prev.Frames)], out.Frames...)
			out.Duration += prev.Duration
		}
	}
	return out, err
}

// retryParams returns the original params with the input responses and
// the request state the server asked to have echoed.
func retryParams(params json.RawMessage, responses map[string]json.RawMessage, state *string) (json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(params, &fields); err != nil {
		return nil, fmt.Errorf("MRTR retry: %w", err)
	}
	if len(responses) > 0 {
		b, err := json.Marshal(responses)
		if err != nil {
			return nil, fmt.Errorf("MRTR retry: encode inputResponses: %w", err)
		}
		fields["inputResponses"] = b
	}
	if state != nil {
		b, _ := json.Marshal(*state)
		fields["requestState"] = b
	}
	return json.Marshal(fields)
}

// describeInputs lists what an input_required result asks for, as
// `elicitation/create (key "confirm")`, in key order.
func describeInputs(ir inputRequired) string {
	if len(ir.InputRequests) == 0 {
		return "no input requests (a request to retry later)"
	}
	keys := make([]string, 0, len(ir.InputRequests))
	for k := range ir.InputRequests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		var r struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(ir.InputRequests[k], &r)
		m := r.Method
		if m == "" {
			m = "a request without a method"
		}
		parts = append(parts, fmt.Sprintf("%s (key %s)", Sanitize(wire.Cut(m, 100)), strconv.Quote(Sanitize(wire.Cut(k, 100)))))
	}
	return strings.Join(parts, ", ")
}
