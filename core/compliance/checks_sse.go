package compliance

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// resumeWindow bounds how long H08 reads a resumed stream: a server may
// keep it open as a standalone stream, and what must not be there (another
// stream's answer) can only be seen by reading on after what should.
const resumeWindow = time.Second

// registerSSE adds the checks of this file to the registry (loadRegistry).
func registerSSE() {
	register(
		&Check{ID: "H07", Title: "An SSE answer to a POST starts with a priming event (an event id, empty data) and sets retry", Severity: Should,
			Section: "basic/transports.mdx#sending-messages-to-the-server", Since: probe.Rev20251125, Transports: []Transport{HTTP}, Eras: []Era{Legacy}, run: checkH07},
		&Check{ID: "H08", Title: "SSE event ids are unique in the session; Last-Event-ID resumes a stream and never replays another stream's messages", Severity: Must,
			Section: "basic/transports.mdx#resumability-and-redelivery", Since: probe.Rev20250326, Transports: []Transport{HTTP}, Eras: []Era{Legacy}, run: checkH08},
	)
}

// sseAnswer POSTs a ping with id on session s and returns the answer when
// it is an SSE stream; a JSON answer makes the check not applicable.
func sseAnswer(ctx context.Context, e *Env, s *Session, id string) (*probe.HTTPResponse, error) {
	method := cheapMethod(e)
	hr, err := rawPost(ctx, e, postHeaders(s, method, nil), probe.Request(id, method, nil))
	if err != nil {
		return nil, err
	}
	if !hr.SSE {
		return nil, notApplicable("the server answered %s with HTTP %d %s, not an SSE stream; priming and resumption apply only to SSE",
			method, hr.Status, hr.ContentType())
	}
	return hr, nil
}

// checkH07 looks at the start of an SSE answer. From 2025-11-25 the server
// "SHOULD immediately send an SSE event consisting of an event ID and an
// empty data field in order to prime the client to reconnect", and
// "SHOULD send an SSE event with a standard retry field" before it closes
// a connection; the conformance suite checks both on the first stream.
func checkH07(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	hr, err := sseAnswer(ctx, e, s, "h07-ping")
	if err != nil {
		return err
	}
	if len(hr.Events) == 0 {
		e.fail("SSE answer", "events, the answer among them", describeStream(hr), "")
		return nil
	}
	first := hr.Events[0]
	const priming = "priming event"
	switch {
	case first.HasID && first.ID != "" && strings.TrimSpace(first.Data) == "":
		e.pass(priming, "id "+first.ID)
	default:
		e.warn(priming, "a first event with an id and empty data", sseSummary(&first),
			`the server "SHOULD immediately send an SSE event consisting of an event ID and an empty data field"`)
	}
	retry := -1
	for _, ev := range hr.Events {
		if ev.Retry >= 0 {
			retry = ev.Retry
			break
		}
	}
	if retry >= 0 {
		e.pass("retry field", fmt.Sprintf("retry: %d", retry))
	} else {
		e.warn("retry field", "a retry field on the stream", "none",
			"without retry a client that is cut off does not know when to reconnect")
	}
	return nil
}

// checkH08 opens two SSE answers on one session, then resumes the first
// from its first event id. The spec (resumability and redelivery): ids,
// when present, "MUST be globally unique across all streams within that
// session"; the server "MAY use this header to replay messages that would
// have been sent after the last event ID, on the stream that was
// disconnected", and "MUST NOT replay messages that would have been
// delivered on a different stream". Not replaying is allowed but defeats
// the priming event, so it is a warning, as in the conformance suite.
func checkH08(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	a, err := sseAnswer(ctx, e, s, "h08-a")
	if err != nil {
		return err
	}
	b, err := sseAnswer(ctx, e, s, "h08-b")
	if err != nil {
		return err
	}
	idsA, idsB := eventIDs(a), eventIDs(b)
	if len(idsA) == 0 {
		return notApplicable("the server's SSE events carry no ids, so a stream cannot be resumed")
	}
	dup := ""
	for _, id := range idsB {
		if containsString(idsA, id) {
			dup = id
			break
		}
	}
	if dup != "" {
		e.fail("event ids across streams", "ids unique in the session", "id "+dup+" on both streams",
			"ids must be unique across the session's streams, or Last-Event-ID cannot say which stream to resume")
	} else {
		e.pass("event ids across streams", "")
	}

	// Resume the first stream from its first event.
	h := postHeaders(s, "", nil)
	h.Del("Content-Type")
	h.Set("Accept", "text/event-stream")
	h.Set("Last-Event-ID", idsA[0])
	rctx, cancel := context.WithTimeout(ctx, min(resumeWindow, e.opts.Timeout))
	defer cancel()
	answers := func(ev *probe.Event, id string) bool {
		m, err := probe.Parse([]byte(ev.Data))
		return err == nil && m.IsResponse() && m.HasID(id)
	}
	hr, err := e.rawHTTP(rctx, probe.HTTPRequest{Method: http.MethodGet, Header: h, Until: func(ev *probe.Event) bool {
		return answers(ev, "h08-b")
	}})
	const name = "GET with Last-Event-ID"
	if err != nil {
		e.warn(name, "the rest of the first stream", err.Error(), "")
		return nil
	}
	replayedA, replayedB := false, false
	for i := range hr.Events {
		replayedA = replayedA || answers(&hr.Events[i], "h08-a")
		replayedB = replayedB || answers(&hr.Events[i], "h08-b")
	}
	aAfterFirst := len(a.Events) > 1 // something followed the event resumed from
	switch {
	case replayedB:
		e.fail(name, "only messages of the resumed stream", "the answer to h08-b, sent on another stream",
			"the server must not replay messages that were delivered on a different stream")
	case replayedA || !aAfterFirst:
		e.pass(name, fmt.Sprintf("HTTP %d", hr.Status))
	default:
		e.warn(name, "the answer to h08-a replayed", describeStream(hr),
			"the server primed the stream for resumption but did not resume it")
	}
	return nil
}

// eventIDs lists the ids of a stream's events, in order.
func eventIDs(hr *probe.HTTPResponse) []string {
	var ids []string
	for _, ev := range hr.Events {
		if ev.HasID && ev.ID != "" {
			ids = append(ids, ev.ID)
		}
	}
	return ids
}

// containsString reports whether list holds s.
func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// describeStream says what an SSE response held, for findings.
func describeStream(hr *probe.HTTPResponse) string {
	d := fmt.Sprintf("HTTP %d %s, %d events", hr.Status, hr.ContentType(), len(hr.Events))
	if hr.StreamErr != nil {
		d += " (" + hr.StreamErr.Error() + ")"
	}
	return d
}
