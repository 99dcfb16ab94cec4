package httpwire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// legacySSE is the HTTP+SSE transport of protocol 2024-11-05: a GET opens
// an event stream whose first event, "endpoint", names the URL to POST
// messages to; the server answers on the stream.
type legacySSE struct {
	h *conn

	endpoint string // where messages go, same origin as the stream
	sid      string // the endpoint's sessionId query parameter, if any
	body     io.ReadCloser
	reader   *sseReader
	reading  bool // startReading took over body
	wg       sync.WaitGroup
}

// id returns the sessionId the endpoint carries, or "".
func (t *legacySSE) id() string { return t.sid }

// connect opens the stream and waits for the endpoint event, within
// InitTimeout and ctx.
func (t *legacySSE) connect(ctx context.Context) error {
	target := t.h.url.String()
	streamCtx, cancel := context.WithCancel(t.h.ctx)
	var timedOut bool
	var mu sync.Mutex
	timer := time.AfterFunc(t.h.cfg.InitTimeout, func() {
		mu.Lock()
		timedOut = true
		mu.Unlock()
		cancel()
	})
	stop := context.AfterFunc(ctx, cancel)
	ok := false
	defer func() {
		timer.Stop()
		stop()
		if !ok {
			cancel()
		}
	}()
	fail := func(err error) error {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case timedOut:
			return fmt.Errorf("server %q: GET %s: %w: no endpoint event within %s%s", t.h.cfg.Name, target, wire.ErrTimeout, t.h.cfg.InitTimeout, t.h.cfg.StartLimit)
		case ctx.Err() != nil:
			return fmt.Errorf("server %q: GET %s: %w", t.h.cfg.Name, target, ctx.Err())
		}
		return err
	}

	req, err := t.h.newRequest(streamCtx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := t.h.client.Do(req)
	if err != nil {
		return fail(t.h.failure(ctx, streamCtx, http.MethodGet, target, err, time.Now()))
	}
	if resp.StatusCode >= 300 {
		body, _, _ := readLimited(resp.Body, errorBodyLimit)
		resp.Body.Close()
		return t.h.statusError(http.MethodGet, target, resp, body)
	}
	if ct := mediaType(resp.Header.Get("Content-Type")); ct != "text/event-stream" {
		body, _, _ := readLimited(resp.Body, errorBodyLimit)
		resp.Body.Close()
		herr := t.h.statusError(http.MethodGet, target, resp, body)
		herr.Hint = fmt.Sprintf("the URL answered with Content-Type %q, not an SSE stream; "+
			"if it is a Streamable HTTP endpoint, use transport %q", wire.Sanitize(ct), Streamable)
		return herr
	}
	r := newSSEReader(resp.Body, t.h.cfg.MaxMessageBytes)
	r.hold = t.h.hold()
	ev, err := r.next()
	if err != nil {
		resp.Body.Close()
		return fail(&HTTPError{Server: t.h.cfg.Name, Method: http.MethodGet, URL: target,
			Err: fmt.Errorf("%s before the endpoint event", describeStreamEnd(err))})
	}
	if ev.event != "endpoint" {
		resp.Body.Close()
		return fmt.Errorf("server %q: GET %s: %w: the first SSE event is %q, want \"endpoint\"",
			t.h.cfg.Name, target, wire.ErrBadResponse, wire.Sanitize(wire.Cut(ev.event, 100)))
	}
	u, err := t.h.url.Parse(strings.TrimSpace(string(ev.data)))
	if err != nil || u.Scheme != t.h.url.Scheme || u.Host != t.h.url.Host {
		resp.Body.Close()
		// Credentials are for the origin the user named; an endpoint
		// elsewhere would receive them.
		return fmt.Errorf("server %q: GET %s: %w: endpoint %q is not on the stream's origin",
			t.h.cfg.Name, target, wire.ErrBadResponse, wire.Sanitize(wire.Cut(string(ev.data), 200)))
	}
	t.endpoint, t.sid = u.String(), u.Query().Get("sessionId")
	t.body, t.reader = resp.Body, r
	ok = true
	// The stream must now outlive the start: only the session ends it.
	timer.Stop()
	stop()
	return nil
}

// startReading routes the stream's messages until it ends. The session
// cannot survive the stream: its endpoint belongs to it.
func (t *legacySSE) startReading() {
	t.reading = true
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		var err error
		for {
			var ev sseEvent
			ev, err = t.reader.next()
			if err != nil {
				break
			}
			if ev.carriesMessage() {
				t.h.sink.Route(ev.data, wire.Source{Event: ev.event, ID: t.reader.lastID})
			}
		}
		t.body.Close()
		if t.h.ctx.Err() != nil {
			return
		}
		herr := &HTTPError{Server: t.h.cfg.Name, Method: http.MethodGet, URL: t.h.url.String(),
			Err: errors.New(describeStreamEnd(err) + "; the session is over")}
		t.h.sink.Die(herr)
		t.h.sink.FailInit(herr)
	}()
}

// send POSTs msg to the endpoint; the answer comes on the stream.
func (t *legacySSE) send(ctx context.Context, msg []byte, c wire.Call) error {
	body := wire.TrimNewline(msg)
	x := kindOf(body, c)
	reqCtx, cancel := t.h.exchangeContext(ctx)
	defer cancel()
	req, err := t.h.newRequest(reqCtx, http.MethodPost, t.endpoint, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := t.h.client.Do(req)
	if err != nil {
		return t.h.failure(ctx, reqCtx, http.MethodPost, t.endpoint, err, start)
	}
	defer resp.Body.Close()
	if c != nil {
		c.SetExchange(&wire.Exchange{Status: resp.StatusCode, Header: resp.Header, RequestHeader: t.h.redact.Header(req.Header)})
	}
	body, _, err = readLimited(resp.Body, errorBodyLimit)
	if resp.StatusCode < 300 {
		return nil // the body, if any, is not where 2024-11-05 answers
	}
	if err != nil && len(body) == 0 {
		return t.h.failure(ctx, reqCtx, http.MethodPost, t.endpoint, err, start)
	}
	if found, seen := t.h.deliverErrorBody(body, x, resp.StatusCode); found {
		if x.init && !seen {
			return fmt.Errorf("server %q: POST %s: HTTP %d", t.h.cfg.Name, t.endpoint, resp.StatusCode)
		}
		return nil
	}
	return t.h.statusError(http.MethodPost, t.endpoint, resp, body)
}

// stop aborts the stream and the requests in flight; closing the stream is
// how a 2024-11-05 session ends.
func (t *legacySSE) stop() error {
	t.h.cancel()
	return nil
}

// drain waits for the stream reader and closes idle connections.
func (t *legacySSE) drain() {
	t.wg.Wait()
	if t.body != nil && !t.reading {
		t.body.Close()
	}
	t.h.tr.CloseIdleConnections()
}
