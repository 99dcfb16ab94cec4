package httpwire

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// maxListenFailures is how many GET stream connections in a row may fail
// on the network before the session stops trying; the calls themselves
// do not need the stream, so giving up only loses server-sent messages.
const maxListenFailures = 3

// listenReadyWait bounds how long StartHTTP waits for the server to answer
// the GET that opens the standalone stream.
const listenReadyWait = 2 * time.Second

// startListening opens the standalone GET stream, on which the server
// sends requests and notifications that do not belong to a call. Servers
// such as mcp-go's send sampling and roots requests only there. The
// channel closes once the server has answered the first GET (or the
// attempt failed): what the server sends on the stream from then on
// reaches the session.
func (t *streamable) startListening() <-chan struct{} {
	ready := make(chan struct{})
	if t.track() {
		go t.listen(ready)
	} else {
		close(ready)
	}
	return ready
}

// listen keeps the GET stream open for the life of the session: when the
// server ends it, it reconnects after the retry delay the server asked
// for, sending Last-Event-ID so nothing is lost. A 405 means the server
// offers no such stream; another error status ends the attempt too.
func (t *streamable) listen(ready chan struct{}) {
	defer t.wg.Done()
	var once sync.Once
	markReady := func() { once.Do(func() { close(ready) }) }
	defer markReady()
	var lastID string
	retry := defaultRetry
	failures := 0
	for t.h.ctx.Err() == nil {
		resp, cancel, err := t.openListen(lastID)
		markReady()
		if err != nil {
			if failures++; failures >= maxListenFailures {
				return
			}
			if !wire.SleepCtx(retry, t.h.ctx.Done(), nil) {
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
		r := newSSEReader(resp.Body, t.h.cfg.MaxMessageBytes)
		r.lastID, r.hold = lastID, t.h.hold()
		for {
			ev, err := r.next()
			if err != nil {
				break
			}
			if ev.carriesMessage() {
				t.h.sink.Route(ev.data, wire.Source{Event: ev.event, ID: r.lastID})
			}
		}
		resp.Body.Close()
		cancel()
		lastID = r.lastID
		if r.retry > 0 {
			retry = r.retry
		}
		if !wire.SleepCtx(retry, t.h.ctx.Done(), nil) {
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
