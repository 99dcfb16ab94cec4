package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Outcome is what a call produced when the server answered: a result (which
// may be a tool error with isError: true) or a JSON-RPC error.
type Outcome struct {
	// Result is the JSON-RPC result object exactly as the server sent it:
	// every content block, isError, structuredContent, _meta. It is nil
	// when the server answered with an error only.
	Result json.RawMessage
	// RPCError is the JSON-RPC error the server answered with, or nil.
	RPCError *RPCError
	// Frames are the request frame and, when one arrived, the response
	// frame, each cut to FrameLimit bytes.
	Frames []Frame
	// Duration runs from writing the request to reading the response (or to
	// giving up).
	Duration time.Duration
}

// IsError reports whether Result is a tool result with isError: true.
func (o *Outcome) IsError() bool {
	if o == nil || len(o.Result) == 0 {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(o.Result, &r)
	return r.IsError
}

// call is one request waiting for its response.
type call struct {
	done chan reply // buffered: the router never blocks on it
}

// reply is what the router hands a waiting call.
type reply struct {
	frame   Frame
	result  json.RawMessage
	rpcErr  json.RawMessage
	tooLong int // size of a response discarded for exceeding MaxMessageBytes
	at      time.Time
}

// request is a JSON-RPC request frame.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// toolCallParams are the params of tools/call.
type toolCallParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// CallTool calls the tool name with args, a JSON object (nil, empty or null
// is sent as {}), and returns the server's answer. The error is non-nil only
// for transport failures: it wraps ErrServerExited, ErrTimeout (ctx's
// deadline passed; the session stays usable), ErrClosed or ErrBadResponse,
// or ctx's error if ctx was cancelled. isError results and JSON-RPC errors
// are Outcomes, not errors. Even with an error, the Outcome is returned with
// the request frame and the time waited, for reports.
func (s *Session) CallTool(ctx context.Context, name string, args json.RawMessage) (*Outcome, error) {
	label := "tools/call " + strconv.Quote(name)
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return nil, fmt.Errorf("%s: arguments are not valid JSON", label)
	}
	return s.do(ctx, label, "tools/call", toolCallParams{Name: name, Arguments: args})
}

// Request sends any request, such as tools/list or resources/read, with raw
// params (nil omits them), and returns the answer as CallTool does.
func (s *Session) Request(ctx context.Context, method string, params json.RawMessage) (*Outcome, error) {
	var p any
	if len(bytes.TrimSpace(params)) > 0 {
		if !json.Valid(params) {
			return nil, fmt.Errorf("%s: params are not valid JSON", method)
		}
		p = params
	}
	return s.do(ctx, method, method, p)
}

// do sends one request and waits for its response, the server's death, or
// the end of ctx.
func (s *Session) do(ctx context.Context, label, method string, params any) (*Outcome, error) {
	if _, ok := ctx.Deadline(); !ok && s.cfg.CallTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.CallTimeout)
		defer cancel()
	}
	id := s.nextID.Add(1)
	frame, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, fmt.Errorf("%s: encode request: %w", label, err)
	}
	frame = append(frame, '\n')
	key := strconv.FormatInt(id, 10)
	c := &call{done: make(chan reply, 1)}
	if err := s.addPending(key, c); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}

	start := time.Now()
	out := &Outcome{Frames: []Frame{newFrame(Sent, start, frame)}}
	if err := s.stdin.writeFrame(ctx, frame); err != nil {
		s.takePending(key)
		err = s.writeError(ctx, err, start)
		out.Duration = time.Since(start)
		return out, fmt.Errorf("%s: %w", label, err)
	}

	select {
	case r := <-c.done:
		return s.settle(out, label, start, r)
	case <-s.dead:
		if s.takePending(key) == nil { // the router has taken the call
			return s.settle(out, label, start, <-c.done)
		}
		out.Duration = time.Since(start)
		return out, fmt.Errorf("%s: %w", label, s.deathError())
	case <-ctx.Done():
		if s.takePending(key) == nil {
			return s.settle(out, label, start, <-c.done)
		}
		out.Duration = time.Since(start)
		s.sendCancel(id, ctx.Err())
		return out, fmt.Errorf("%s: %w", label, ctxError(ctx, out.Duration))
	}
}

// settle turns the response r into the call's result, unless it arrived
// after the session died (or was closed): then the death is the result, so
// that a call interrupted by Close reliably fails with ErrClosed.
func (s *Session) settle(out *Outcome, label string, start time.Time, r reply) (*Outcome, error) {
	s.mu.Lock()
	deadErr, deadAt := s.deadErr, s.deadAt
	s.mu.Unlock()
	if deadErr != nil && !r.at.Before(deadAt) {
		out.Duration = r.at.Sub(start)
		out.Frames = append(out.Frames, r.frame)
		return out, fmt.Errorf("%s: %w", label, deadErr)
	}
	return finish(out, label, start, r, s.cfg.MaxMessageBytes)
}

// finish fills out from the response r.
func finish(out *Outcome, label string, start time.Time, r reply, limit int) (*Outcome, error) {
	out.Duration = r.at.Sub(start)
	out.Frames = append(out.Frames, r.frame)
	if r.tooLong > 0 {
		return out, fmt.Errorf("%s: %w: response of %d bytes exceeds the %d-byte limit", label, ErrBadResponse, r.tooLong, limit)
	}
	if len(r.result) > 0 {
		out.Result = r.result
	}
	if len(r.rpcErr) > 0 && string(r.rpcErr) != "null" {
		out.RPCError = parseRPCError(r.rpcErr)
		return out, nil
	}
	if len(r.result) == 0 {
		return out, fmt.Errorf("%s: %w: response has neither result nor error", label, ErrBadResponse)
	}
	return out, nil
}

// ctxError describes a call abandoned because ctx ended after waited. A
// context whose deadline has passed but whose timer has not yet fired
// counts as expired.
func ctxError(ctx context.Context, waited time.Duration) error {
	waited = waited.Round(time.Millisecond)
	cause := ctx.Err()
	if cause == nil || errors.Is(cause, context.DeadlineExceeded) {
		return fmt.Errorf("%w: no response after %s: %w", ErrTimeout, waited, context.DeadlineExceeded)
	}
	return fmt.Errorf("cancelled after %s: %w", waited, cause)
}

// writeError classifies a failed request write.
func (s *Session) writeError(ctx context.Context, err error, start time.Time) error {
	if broken := s.stdin.brokenErr(); broken != nil {
		// Half a frame is on the server's stdin: nothing sent from now on
		// could be understood, so every call fails now.
		s.die(broken)
	}
	if errors.Is(err, errStdinStalled) {
		s.die(err)
		return s.deathError()
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return ctxError(ctx, time.Since(start))
	}
	// Most likely a broken pipe: the server is gone. Give the monitor a
	// moment to collect the exit status and stderr.
	if deadErr := s.awaitDeath(2 * exitGrace); deadErr != nil {
		return deadErr
	}
	return err
}

// cancelTimeout bounds writing a notifications/cancelled.
const cancelTimeout = 2 * time.Second

// sendCancel tells the server, in the background, that the client gave up
// on request id.
func (s *Session) sendCancel(id int64, reason error) {
	frame, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"method":  "notifications/cancelled",
		"params":  map[string]any{"requestId": id, "reason": reason.Error()},
	})
	if err != nil {
		return
	}
	frame = append(frame, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed { // Close is waiting on bg, or has already
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, cancelTimeout)
		defer cancel()
		_ = s.stdin.writeFrame(ctx, frame)
	}()
}

// addPending registers c under key, unless the session can no longer carry
// calls.
func (s *Session) addPending(key string, c *call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if s.deadErr != nil {
		return s.deadErr
	}
	s.pending[key] = c
	return nil
}

// takePending removes and returns the call registered under key, or nil.
func (s *Session) takePending(key string) *call {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.pending[key]
	delete(s.pending, key)
	return c
}
