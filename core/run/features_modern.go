package run

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/mcptest/mcptest/core/session"
)

// The modern era (2026-07-28) has no logging/setLevel and no
// resources/subscribe: a request carries the log level it wants in its
// _meta, and a client subscribes by holding a subscriptions/listen request
// open, on whose stream the server first acknowledges what it established
// and then sends the notifications.

// Modern-era protocol names.
const (
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	methodListen           = "subscriptions/listen"
	methodListenAcknowledg = "notifications/subscriptions/acknowledged"
)

// modern reports whether the test's session speaks the modern era.
func (fr *featureRun) modern() bool { return session.IsModern(fr.sess.ProtocolVersion()) }

// listen opens a subscriptions/listen request for the test's URI and waits
// for the server to acknowledge it; f.stopListen ends it. False means the
// test has errored (res says why).
func (fr *featureRun) listen(ctx context.Context, capture *session.Capture, f *features) bool {
	params, _ := json.Marshal(map[string]any{"notifications": map[string]any{"resourceSubscriptions": []string{f.uri}}})
	lctx, stop := context.WithCancel(ctx)
	type answer struct {
		out *session.Outcome
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := fr.sess.Request(lctx, methodListen, params)
		done <- answer{out, err}
	}()
	var ended *answer
	f.stopListen = func() {
		stop()
		if ended == nil {
			select {
			case a := <-done:
				ended = &a
			case <-time.After(listenGrace):
				// The session abandons the request on its own; the test
				// does not wait for it.
				ended = &answer{}
			}
		}
		fr.observe(methodListen, params, ended.out, ended.err)
		if ended.out != nil {
			fr.frames = append(fr.frames, ended.out.Frames...)
		}
	}

	wctx, cancel := context.WithTimeout(ctx, fr.t.Timeout)
	defer cancel()
	acked := func(evs []session.Event) bool {
		return slices.ContainsFunc(evs, func(e session.Event) bool { return e.Method == methodListenAcknowledg })
	}
	// The request may also end at once (an error, or nothing to listen to).
	waitErr := make(chan error, 1)
	go func() { waitErr <- capture.Wait(wctx, acked) }()
	select {
	case err := <-waitErr:
		if err != nil {
			fr.failListen(ctx, f, "the server did not acknowledge "+methodListen+" within the test's timeout")
			return false
		}
	case a := <-done:
		ended = &a
		cancel()
		<-waitErr
		msg := methodListen + " ended before the server acknowledged it"
		switch {
		case a.err != nil:
			msg += ": " + a.err.Error()
		case a.out != nil && a.out.RPCError != nil:
			msg = methodListen + " answered " + a.out.RPCError.Error()
		}
		fr.failListen(ctx, f, msg)
		return false
	}
	if !established(capture.Events(), f.uri) {
		fr.failListen(ctx, f, "the server acknowledged "+methodListen+" without the subscription to "+f.uri)
		return false
	}
	return true
}

// failListen ends the listen request and errors the test.
func (fr *featureRun) failListen(ctx context.Context, f *features, msg string) {
	f.stopListen()
	kind := "subscribe"
	if ctx.Err() != nil {
		kind = callErrorKind(ctx.Err())
	}
	fr.fail(kind, msg)
}

// established reports whether the acknowledgement lists uri among the
// resource subscriptions the server set up.
func established(evs []session.Event, uri string) bool {
	for _, e := range evs {
		if e.Method != methodListenAcknowledg {
			continue
		}
		var p struct {
			Notifications struct {
				ResourceSubscriptions []string `json:"resourceSubscriptions"`
			} `json:"notifications"`
		}
		if json.Unmarshal(e.Params, &p) == nil && slices.Contains(p.Notifications.ResourceSubscriptions, uri) {
			return true
		}
	}
	return false
}

// listenGrace is how long stopping a listen request may take before the
// test goes on without its answer.
const listenGrace = 2 * time.Second
