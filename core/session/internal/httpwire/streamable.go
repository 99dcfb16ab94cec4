package httpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// Streamable HTTP timings.
const (
	// defaultRetry is how long the client waits before reconnecting an SSE
	// stream when the server gave no retry field.
	defaultRetry = time.Second
	// maxResumes bounds how often a call's response stream is resumed
	// with Last-Event-ID after the server closed it early.
	maxResumes = 3
	// deleteTimeout bounds the DELETE that ends the session on Close.
	deleteTimeout = 5 * time.Second
)

// streamable is the Streamable HTTP transport (protocol 2025-03-26 and
// later): every message is POSTed to the endpoint, and the answer comes
// back as a JSON body or as an SSE stream on that POST.
type streamable struct {
	h *conn

	mu        sync.Mutex
	sessionID string // Mcp-Session-Id, once the server has set it
	version   string // MCP-Protocol-Version, once initialize has answered
	stopping  bool   // stop has begun: no new stream readers

	wg sync.WaitGroup // response streams and the GET stream
}

// track registers a stream reader unless the transport is stopping; a
// call still finishing its POST while Close runs must not start one after
// drain has begun to wait.
func (t *streamable) track() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopping {
		return false
	}
	t.wg.Add(1)
	return true
}

// id returns the session id the server assigned, or "".
func (t *streamable) id() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sessionID
}

// protocolHeaders adds the session id and the protocol version to req.
func (t *streamable) protocolHeaders(req *http.Request) {
	t.mu.Lock()
	id, v := t.sessionID, t.version
	t.mu.Unlock()
	if id != "" {
		req.Header.Set("Mcp-Session-Id", id)
	}
	if v != "" {
		req.Header.Set("Mcp-Protocol-Version", v)
	}
}

// sniffVersion records the protocol version of an initialize response,
// before mcp-go sees it: mcp-go's next message (notifications/initialized)
// must already carry the header. The header exists since 2025-06-18; older
// revisions do not define it, so it is not sent for them.
func (t *streamable) sniffVersion(msg []byte) {
	var m struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Result.ProtocolVersion < "2025-06-18" {
		return
	}
	t.mu.Lock()
	t.version = m.Result.ProtocolVersion
	t.mu.Unlock()
}

// send POSTs msg and handles the answer: a JSON body is routed before send
// returns; an SSE stream is read in the background.
func (t *streamable) send(ctx context.Context, msg []byte, c wire.Call) error {
	body := wire.TrimNewline(msg)
	if t.modernCancel(body) {
		return nil
	}
	x := kindOf(body, c)
	target := t.h.url.String()
	reqCtx, cancel := t.h.exchangeContext(ctx)
	req, err := t.h.newRequest(reqCtx, http.MethodPost, target, body)
	if err != nil {
		cancel()
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	t.protocolHeaders(req)
	t.modernHeaders(req, body)
	start := time.Now()
	resp, err := t.h.client.Do(req)
	if err != nil {
		cancel()
		return t.h.failure(ctx, reqCtx, http.MethodPost, target, err, start)
	}
	if c != nil {
		c.SetExchange(&wire.Exchange{Status: resp.StatusCode, Header: resp.Header, RequestHeader: t.h.redact.Header(req.Header)})
	}
	if x.init && resp.StatusCode < 300 {
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			if !validSessionID(id) {
				resp.Body.Close()
				cancel()
				return fmt.Errorf("server %q: %w: Mcp-Session-Id %q has characters outside visible ASCII",
					t.h.cfg.Name, wire.ErrBadResponse, wire.Sanitize(wire.Cut(id, 100)))
			}
			t.mu.Lock()
			t.sessionID = id
			t.mu.Unlock()
		}
	}
	if resp.StatusCode < 300 && mediaType(resp.Header.Get("Content-Type")) == "text/event-stream" {
		if !t.track() {
			resp.Body.Close()
			cancel()
			return wire.ErrClosed
		}
		go t.readStream(ctx, reqCtx, cancel, resp, x)
		return nil
	}
	defer cancel()
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return t.errorStatus(ctx, reqCtx, resp, x, start)
	}
	return t.jsonBody(ctx, reqCtx, resp, x, start)
}

// validSessionID reports whether id is visible ASCII, as the spec requires.
func validSessionID(id string) bool {
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7E {
			return false
		}
	}
	return true
}

// jsonBody handles a 2xx answer that is not an SSE stream.
func (t *streamable) jsonBody(ctx, reqCtx context.Context, resp *http.Response, x *exchangeKind, start time.Time) error {
	target := t.h.url.String()
	hold := t.h.hold()
	defer hold.release() // routing copies what it keeps
	body, tooLong, err := readBody(resp.Body, t.h.cfg.MaxMessageBytes, hold, resp.ContentLength)
	if errors.Is(err, ErrBodyBudget) {
		return fmt.Errorf("server %q: POST %s: %w: %w", t.h.cfg.Name, target, wire.ErrBadResponse, err)
	}
	if err != nil {
		return t.h.failure(ctx, reqCtx, http.MethodPost, target, err, start)
	}
	if tooLong {
		return fmt.Errorf("server %q: POST %s: %w: response body exceeds the %d-byte limit",
			t.h.cfg.Name, target, wire.ErrBadResponse, t.h.cfg.MaxMessageBytes)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if x.request {
			return fmt.Errorf("server %q: POST %s: %w: HTTP %d with no body answered a request",
				t.h.cfg.Name, target, wire.ErrBadResponse, resp.StatusCode)
		}
		return nil
	}
	if ct := mediaType(resp.Header.Get("Content-Type")); ct != "application/json" {
		return fmt.Errorf("server %q: POST %s: %w: HTTP %d with Content-Type %q, want application/json or text/event-stream; body: %s",
			t.h.cfg.Name, target, wire.ErrBadResponse, resp.StatusCode, wire.Sanitize(ct), excerpt(body, t.h.redact))
	}
	seen := false
	for _, msg := range splitBody(body) {
		seen = t.deliver(msg, x, wire.Source{Owner: x.c}) || seen
	}
	if x.request && !x.answered(t.h.sink, seen) {
		return fmt.Errorf("server %q: POST %s: %w: the response body does not answer request id %s: %s",
			t.h.cfg.Name, target, wire.ErrBadResponse, x.id, excerpt(body, t.h.redact))
	}
	return nil
}

// deliver routes one message the server sent in answer to x, and reports
// whether it is the response to x's request.
func (t *streamable) deliver(msg []byte, x *exchangeKind, src wire.Source) bool {
	isResponse := false
	if x.c == nil && x.request {
		isResponse = responseID(msg) == x.id
		if isResponse && x.init {
			t.sniffVersion(msg)
		}
	}
	t.h.sink.Route(msg, src)
	return isResponse
}

// errorStatus handles an HTTP error status (or a redirect not followed).
func (t *streamable) errorStatus(ctx, reqCtx context.Context, resp *http.Response, x *exchangeKind, start time.Time) error {
	target := t.h.url.String()
	body, _, err := readLimited(resp.Body, errorBodyLimit)
	if err != nil && len(body) == 0 {
		return t.h.failure(ctx, reqCtx, http.MethodPost, target, err, start)
	}
	if found, seen := t.h.deliverErrorBody(body, x, resp.StatusCode); found {
		if x.init && !seen {
			// Reported through failInit; mcp-go needs a failed write too.
			return fmt.Errorf("server %q: POST %s: HTTP %d", t.h.cfg.Name, target, resp.StatusCode)
		}
		return nil
	}
	herr := t.h.statusError(http.MethodPost, target, resp, body)
	if resp.StatusCode == http.StatusNotFound && !x.init && t.id() != "" {
		// The spec's way of saying the session is over: every later call
		// would get the same answer, so fail them all with it.
		herr.Hint = "the server no longer knows the session " + wire.Sanitize(t.id())
		t.h.sink.Die(herr)
	}
	return herr
}

// readStream reads the SSE stream answering x, resuming it with
// Last-Event-ID if the server closes it before the response, and fails
// the request if the response never comes.
func (t *streamable) readStream(ctx, reqCtx context.Context, cancel context.CancelFunc, resp *http.Response, x *exchangeKind) {
	defer t.wg.Done()
	r := newSSEReader(resp.Body, t.h.cfg.MaxMessageBytes)
	r.hold = t.h.hold()
	defer r.hold.release() // resumed readers share it
	done, err := t.consume(r, x)
	resp.Body.Close()
	cancel()
	timedOut := errors.Is(context.Cause(reqCtx), errHTTPTimeout)
	resumable := func() bool {
		// The stateless era has no resumption: a stream cut short loses
		// the answer.
		return !done && x.request && r.lastID != "" && !timedOut && !errors.Is(err, errEventTooLong) && !t.h.cfg.Modern
	}
	for resumes := 0; resumable() && resumes < maxResumes; resumes++ {
		if t.h.ctx.Err() != nil || ctx.Err() != nil || (x.c != nil && !t.h.sink.Pending(x.c)) {
			return
		}
		delay := r.retry
		if delay == 0 {
			delay = defaultRetry
		}
		if !wire.SleepCtx(delay, ctx.Done(), t.h.ctx.Done()) {
			return
		}
		reqCtx, cancel = t.h.exchangeContext(ctx)
		resp, err = t.resume(reqCtx, r.lastID)
		if err != nil {
			cancel()
			break
		}
		r = resumeReader(resp, r, t.h.cfg.MaxMessageBytes)
		done, err = t.consume(r, x)
		resp.Body.Close()
		cancel()
		timedOut = errors.Is(context.Cause(reqCtx), errHTTPTimeout)
	}
	if done || !x.request || t.h.ctx.Err() != nil || ctx.Err() != nil {
		return
	}
	var fail error
	switch {
	case timedOut:
		fail = fmt.Errorf("server %q: POST %s: %w: no complete response within the HTTP timeout of %s",
			t.h.cfg.Name, t.h.url, wire.ErrTimeout, t.h.cfg.HTTP.Timeout)
	case errors.Is(err, errEventTooLong):
		fail = fmt.Errorf("server %q: POST %s: %w: %w", t.h.cfg.Name, t.h.url, wire.ErrBadResponse, err)
	default:
		var herr *HTTPError
		if !errors.As(err, &herr) {
			herr = &HTTPError{Server: t.h.cfg.Name, Method: http.MethodPost, URL: t.h.url.String(),
				Err: fmt.Errorf("%s before answering request id %s", describeStreamEnd(err), x.id)}
		}
		fail = herr
	}
	if x.c != nil {
		t.h.sink.Fail(x.c, fail)
	} else if x.init {
		t.h.sink.FailInit(fail)
	}
}

// consume routes the events of r until the response to x arrives or the
// stream ends. It reports whether the response arrived, and the error that
// ended the stream (io.EOF for a clean end).
func (t *streamable) consume(r *sseReader, x *exchangeKind) (bool, error) {
	for {
		ev, err := r.next()
		if err != nil {
			return false, err
		}
		src := wire.Source{Owner: x.c, Event: ev.event, ID: r.lastID}
		if !ev.carriesMessage() {
			if x.c != nil && ev.event != "message" {
				t.h.sink.Record(x.c, ev.data, ev.event, r.lastID)
			}
			continue
		}
		seen := t.deliver(ev.data, x, src)
		if x.request && x.answered(t.h.sink, seen) {
			return true, nil
		}
	}
}

// resume reopens a stream after the event lastID, with GET as the spec
// says (2025-11-25, resumability and redelivery).
func (t *streamable) resume(ctx context.Context, lastID string) (*http.Response, error) {
	target := t.h.url.String()
	req, err := t.h.newRequest(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Last-Event-Id", lastID)
	t.protocolHeaders(req)
	start := time.Now()
	resp, err := t.h.client.Do(req)
	if err != nil {
		return nil, t.h.failure(ctx, ctx, http.MethodGet, target, err, start)
	}
	if resp.StatusCode >= 300 || mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
		body, _, _ := readLimited(resp.Body, errorBodyLimit)
		resp.Body.Close()
		herr := t.h.statusError(http.MethodGet, target, resp, body)
		herr.Hint = "resuming the response stream after event " + wire.Sanitize(lastID) + " failed"
		return nil, herr
	}
	return resp, nil
}

// resumeReader reads a resumed stream, keeping the previous one's event id
// and retry until the server sends new ones.
func resumeReader(resp *http.Response, prev *sseReader, max int) *sseReader {
	r := newSSEReader(resp.Body, max)
	r.lastID, r.retry, r.hold = prev.lastID, prev.retry, prev.hold
	return r
}

// stop aborts every stream and request in flight, then ends the session
// on the server with DELETE when it has an id. The answer (2xx, or 405
// for a server that does not allow it) is not an error of Close.
func (t *streamable) stop() error {
	t.mu.Lock()
	t.stopping = true
	t.mu.Unlock()
	t.h.cancel()
	id := t.id()
	if id == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), min(t.h.cfg.HTTP.Timeout, deleteTimeout))
	defer cancel()
	req, err := t.h.newRequest(ctx, http.MethodDelete, t.h.url.String(), nil)
	if err != nil {
		return nil
	}
	t.protocolHeaders(req)
	resp, err := t.h.client.Do(req)
	if err != nil {
		return nil
	}
	_, _, _ = readLimited(resp.Body, errorBodyLimit)
	resp.Body.Close()
	return nil
}

// drain waits for the stream readers and closes idle connections.
func (t *streamable) drain() {
	t.wg.Wait()
	t.h.tr.CloseIdleConnections()
}
