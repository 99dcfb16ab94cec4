package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
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
	// Frames are the request frame, the messages the server sent on the
	// call's own HTTP response stream before answering (progress, logging,
	// server-to-client requests), and, when one arrived, the response
	// frame, each cut to FrameLimit bytes. Known secrets are redacted.
	Frames []Frame
	// Duration runs from writing the request to reading the response (or to
	// giving up).
	Duration time.Duration
	// HTTPStatus is the status of the HTTP response to the call's POST, or
	// 0 over stdio or when no response arrived. Over legacy SSE it is the
	// POST's status (202), as the answer itself comes on the stream.
	HTTPStatus int
	// Headers are the headers of that HTTP response, or nil.
	Headers http.Header
	// RequestHeaders are the headers mcptest sent with the POST, with the
	// values of Authorization, Proxy-Authorization and headers read from
	// the environment replaced by "[REDACTED]"; nil over stdio.
	RequestHeaders http.Header
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
	key   string         // the request id, as the router looks it up
	start time.Time      // when the request was sent
	done  chan reply     // buffered: the router never blocks on it
	http  *wire.Exchange // set by an HTTP wire's Send before it returns
	mu    sync.Mutex     // guards strm and ambient
	strm  []Frame        // other messages on the call's own response stream
	// ambient counts the frames from outside any response stream added
	// to strm (Session.addAmbient).
	ambient int
}

// ID implements wire.Call.
func (c *call) ID() string { return c.key }

// Started implements wire.Call.
func (c *call) Started() time.Time { return c.start }

// SetExchange implements wire.Call.
func (c *call) SetExchange(x *wire.Exchange) { c.http = x }

// addFrame records a message the server sent on the call's own stream.
func (c *call) addFrame(f Frame) {
	c.mu.Lock()
	c.strm = append(c.strm, f)
	c.mu.Unlock()
}

// streamFrames returns the frames addFrame recorded.
func (c *call) streamFrames() []Frame {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.strm
}

// reply is what the router hands a waiting call.
type reply struct {
	frame   Frame
	result  json.RawMessage
	rpcErr  json.RawMessage
	tooLong int   // size of a response discarded for exceeding MaxMessageBytes
	bad     error // the response could not be decoded (wraps ErrBadResponse)
	err     error // the call failed after it was sent (a broken HTTP stream)
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
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// CallTool calls the tool name with args, a JSON object (nil, empty or null
// is sent as {}), and returns the server's answer. The error is non-nil only
// for transport failures: it wraps ErrServerExited, ErrTransport,
// ErrTimeout (ctx's deadline or the HTTP timeout passed; the session stays
// usable), ErrClosed or ErrBadResponse, or ctx's error if ctx was
// cancelled. isError results and JSON-RPC errors are Outcomes, not errors,
// even when they came with an HTTP error status. Even with an error, the
// Outcome is returned with the request frame, the HTTP status and headers
// when known, and the time waited, for reports.
func (s *Session) CallTool(ctx context.Context, name string, args json.RawMessage) (*Outcome, error) {
	return s.callTool(ctx, name, args, nil)
}

// callTool calls a tool, with meta as the params' _meta unless it is nil.
func (s *Session) callTool(ctx context.Context, name string, args, meta json.RawMessage) (*Outcome, error) {
	label := "tools/call " + strconv.Quote(name)
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return nil, fmt.Errorf("%s: arguments are not valid JSON", label)
	}
	return s.do(ctx, label, "tools/call", toolCallParams{Name: name, Arguments: args, Meta: meta})
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

// roundTrip sends one request and waits for its response, the session's
// death, or the end of ctx. Callers go through do (mrtr.go), which adds
// what the modern era needs.
func (s *Session) roundTrip(ctx context.Context, label, method string, params any) (*Outcome, error) {
	if _, ok := ctx.Deadline(); !ok && s.opts.callTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opts.callTimeout)
		defer cancel()
	}
	id := s.nextID.Add(1)
	frame, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, fmt.Errorf("%s: encode request: %w", label, err)
	}
	frame = append(frame, '\n')
	key := strconv.FormatInt(id, 10)
	c := &call{key: key, done: make(chan reply, 1)}
	if err := s.addPending(key, c); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}

	c.start = time.Now()
	out := &Outcome{Frames: []Frame{s.frame(Sent, c.start, frame, "", "")}}
	err = s.t.Send(ctx, frame, c)
	c.fill(out)
	if err != nil {
		if s.takePending(key) == nil { // answered all the same
			return s.settle(out, label, c, <-c.done)
		}
		out.Duration = time.Since(c.start)
		out.Frames = append(out.Frames, c.streamFrames()...)
		return out, fmt.Errorf("%s: %w", label, err)
	}

	select {
	case r := <-c.done:
		return s.settle(out, label, c, r)
	case <-s.dead:
		if s.takePending(key) == nil { // the router has taken the call
			return s.settle(out, label, c, <-c.done)
		}
		out.Duration = time.Since(c.start)
		out.Frames = append(out.Frames, c.streamFrames()...)
		return out, fmt.Errorf("%s: %w", label, s.deathError())
	case <-ctx.Done():
		if s.takePending(key) == nil {
			return s.settle(out, label, c, <-c.done)
		}
		out.Duration = time.Since(c.start)
		out.Frames = append(out.Frames, c.streamFrames()...)
		s.sendCancel(id, ctx.Err())
		err := wire.CtxError(ctx, out.Duration)
		if errors.Is(err, ErrTimeout) {
			err = fmt.Errorf("%w%s", err, s.waitHints(c.start))
		}
		return out, fmt.Errorf("%s: %w", label, err)
	}
}

// fill copies what the transport learnt about the HTTP exchange into out.
func (c *call) fill(out *Outcome) {
	if x := c.http; x != nil {
		out.HTTPStatus, out.Headers, out.RequestHeaders = x.Status, x.Header, x.RequestHeader
	}
}

// settle turns the response r into the call's result, unless it arrived
// after the session died (or was closed): then the death is the result, so
// that a call interrupted by Close reliably fails with ErrClosed.
func (s *Session) settle(out *Outcome, label string, c *call, r reply) (*Outcome, error) {
	s.mu.Lock()
	deadErr, deadAt := s.deadErr, s.deadAt
	s.mu.Unlock()
	if deadErr != nil && !r.at.Before(deadAt) {
		out.Duration = r.at.Sub(c.start)
		out.Frames = append(out.Frames, c.streamFrames()...)
		if r.err == nil {
			out.Frames = append(out.Frames, r.frame)
		}
		return out, fmt.Errorf("%s: %w", label, deadErr)
	}
	return finish(out, label, c, r, s.opts.maxMessageBytes)
}

// finish fills out from the response r.
func finish(out *Outcome, label string, c *call, r reply, limit int) (*Outcome, error) {
	out.Duration = r.at.Sub(c.start)
	out.Frames = append(out.Frames, c.streamFrames()...)
	if r.err != nil {
		return out, fmt.Errorf("%s: %w", label, r.err)
	}
	out.Frames = append(out.Frames, r.frame)
	if r.bad != nil {
		return out, fmt.Errorf("%s: %w", label, r.bad)
	}
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

// answer hands c a reply unless the call has already been settled (it
// gave up, or another message answered it). It reports whether c took it.
func (s *Session) answer(c *call, r reply) bool {
	if s.takePending(c.key) == nil {
		return false
	}
	c.done <- r
	return true
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
	s.traffic.note(Message{Kind: SentNotification, Method: "notifications/cancelled"})
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
		_ = s.t.Send(ctx, frame, nil)
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

// isPending reports whether a call is still registered under key.
func (s *Session) isPending(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.pending[key]
	return ok
}
