package session

import (
	"context"
	"net/http"
	"time"
)

// maxListenFailures is how many GET stream connections in a row may fail
// on the network before the session stops trying; the calls themselves
// do not need the stream, so giving up only loses server-sent messages.
const maxListenFailures = 3

// startListening opens the standalone GET stream, on which the server
// sends requests and notifications that do not belong to a call. Servers
// such as mcp-go's send sampling and roots requests only there.
func (t *streamable) startListening() {
	if t.track() {
		go t.listen()
	}
}

// listen keeps the GET stream open for the life of the session: when the
// server ends it, it reconnects after the retry delay the server asked
// for, sending Last-Event-ID so nothing is lost. A 405 means the server
// offers no such stream; another error status ends the attempt too.
func (t *streamable) listen() {
	defer t.wg.Done()
	var lastID string
	retry := defaultRetry
	failures := 0
	for t.h.ctx.Err() == nil {
		resp, cancel, err := t.openListen(lastID)
		if err != nil {
			if failures++; failures >= maxListenFailures {
				return
			}
			if !sleepCtx(retry, t.h.ctx.Done(), nil) {
				return
			}
			continue
		}
		if resp.StatusCode >= 300 || mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
			_, _, _ = readLimited(resp.Body, errorBodyLimit)
			resp.Body.Close()
			cancel()
			return
		}
		failures = 0
		r := newSSEReader(resp.Body, t.s.opts.maxMessageBytes)
		r.lastID = lastID
		for {
			ev, err := r.next()
			if err != nil {
				break
			}
			if ev.carriesMessage() {
				t.s.route(ev.data, source{event: ev.event, id: r.lastID})
			}
		}
		resp.Body.Close()
		cancel()
		lastID = r.lastID
		if r.retry > 0 {
			retry = r.retry
		}
		if !sleepCtx(retry, t.h.ctx.Done(), nil) {
			return
		}
	}
}

// openListen sends the GET. The HTTP timeout bounds only the wait for the
// response headers: the stream itself lasts as long as the session.
func (t *streamable) openListen(lastID string) (*http.Response, context.CancelFunc, error) {
	ctx, cancel := context.WithCancel(t.h.ctx)
	req, err := t.h.newRequest(ctx, http.MethodGet, t.h.url.String(), nil)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-Id", lastID)
	}
	t.protocolHeaders(req)
	timer := time.AfterFunc(t.h.cfg.HTTP.Timeout, cancel)
	resp, err := t.h.client.Do(req)
	timer.Stop()
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return resp, cancel, nil
}
