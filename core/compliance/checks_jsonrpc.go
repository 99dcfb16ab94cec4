package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// quietWindow is how long a check watches for messages that must not come.
const quietWindow = 300 * time.Millisecond

// registerJSONRPC adds the checks of this file to the registry (loadRegistry).
func registerJSONRPC() {
	register(
		&Check{ID: "J01", Title: "Responses echo the request id, for integer and string ids", Severity: Must,
			Section: "basic/index.mdx#responses", run: checkJ01},
		&Check{ID: "J02", Title: "Every message is a well-formed JSON-RPC 2.0 envelope", Severity: Must,
			Section: "basic/index.mdx#messages", run: checkJ02},
		&Check{ID: "J03", Title: "Notifications are never answered", Severity: Must,
			Section: "basic/index.mdx#notifications", run: checkJ03},
		&Check{ID: "J04", Title: "An unknown method gets error -32601", Severity: Must,
			Section: "basic/index.mdx (JSON-RPC 2.0 error codes)", run: checkJ04},
		&Check{ID: "J05", Title: "Malformed JSON gets error -32700 with a null id (over HTTP, a 4xx status), and the server survives", Severity: Must,
			Section: "basic/index.mdx (JSON-RPC 2.0 error codes)", run: checkJ05},
		&Check{ID: "J06", Title: "An invalid request (no method, a null id, a wrong jsonrpc) gets error -32600", Severity: Must,
			Section: "basic/index.mdx#requests", run: checkJ06},
		&Check{ID: "J07", Title: "Invalid params get error -32602", Severity: Must,
			Section: "basic/index.mdx (JSON-RPC 2.0 error codes)", Needs: []Capability{CapTools, CapResources}, run: checkJ07},
		&Check{ID: "J08", Title: "A JSON-RPC batch is answered as the revision says (accepted in 2025-03-26; from 2025-06-18 refused or processed, never ignored)", Severity: Must,
			Section: "basic/index.mdx#batching (2025-03-26); changelog.mdx (2025-06-18)", Since: probe.Rev20250326, Eras: []Era{Legacy}, run: checkJ08},
		&Check{ID: "J09", Title: "stdout carries only MCP messages, one per line", Severity: Must,
			Section: "basic/transports.mdx#stdio", Transports: []Transport{Stdio}, run: checkJ09},
	)
}

// checkJ01 sends the same request with an integer and a string id; the
// next response on a fresh session must carry each id back unchanged.
func checkJ01(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	method := cheapMethod(e)
	for _, id := range []any{7, "r-7"} {
		params := s.withMeta(nil)
		var p any
		if params != nil {
			p = params
		}
		name := fmt.Sprintf("%s with id %s", method, mustMarshal(id))
		if _, err := s.Send(ctx, probe.Request(id, method, p), method, params, func(m *probe.Message) bool { return m.IsResponse() }); err != nil {
			return err
		}
		m, err := s.Wait(ctx, e.opts.Timeout, func(m *probe.Message) bool { return m.IsResponse() })
		if err != nil {
			e.fail(name, "a response", err.Error(), "every request must be answered")
			continue
		}
		if !m.HasID(id) {
			e.fail(name, fmt.Sprintf("id %s", mustMarshal(id)), fmt.Sprintf("id %s", orAbsent(m.ID)),
				"the response id must equal the request id, with the same JSON type")
			continue
		}
		e.pass(name, "")
	}
	return nil
}

func orAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "(absent)"
	}
	return string(raw)
}

// checkJ02 exercises a session with successes and errors and checks the
// envelope of every message the server sends.
func checkJ02(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	_, _ = s.Call(ctx, cheapMethod(e), nil)
	for _, l := range declaredLists(e) {
		_, _ = s.Call(ctx, l.method, nil)
	}
	_, _ = s.Call(ctx, "x-mcptest/unknown-method", nil)
	s.Quiet(ctx, quietWindow)
	msgs := s.Received()
	if len(msgs) == 0 {
		e.fail("messages received", "at least one message", "none", "")
		return nil
	}
	bad := 0
	for _, m := range msgs {
		if problem := envelopeProblem(m); problem != "" {
			bad++
			e.fail("envelope of "+describeMsg(m), "a well-formed JSON-RPC 2.0 message", json.RawMessage(m.Raw), problem)
		}
	}
	if bad == 0 {
		e.pass(fmt.Sprintf("all %d messages well formed", len(msgs)), "")
	}
	return nil
}

// describeMsg names a message for a finding.
func describeMsg(m *probe.Message) string {
	switch {
	case m.IsResponse():
		return "response " + orAbsent(m.ID)
	case m.IsRequest():
		return "request " + m.Method
	case m.IsNotification():
		return "notification " + m.Method
	}
	return "message"
}

// envelopeProblem says what is wrong with a message's envelope, or "".
func envelopeProblem(m *probe.Message) string {
	var v string
	if raw, ok := m.Members["jsonrpc"]; !ok || json.Unmarshal(raw, &v) != nil || v != "2.0" {
		return `"jsonrpc" must be the string "2.0"`
	}
	_, hasResult := m.Members["result"]
	_, hasError := m.Members["error"]
	_, hasMethod := m.Members["method"]
	switch {
	case hasMethod:
		if hasResult || hasError {
			return "a request or notification must not carry result or error"
		}
		var method string
		if json.Unmarshal(m.Members["method"], &method) != nil || method == "" {
			return `"method" must be a non-empty string`
		}
		if m.IsRequest() {
			if p := idProblem(m.ID, false); p != "" {
				return p
			}
		}
		if p, ok := m.Members["params"]; ok && !startsWithBrace(p) {
			return `"params" must be an object`
		}
	case hasResult && hasError:
		return "a response must carry exactly one of result and error, not both"
	case hasResult:
		if m.ID == nil {
			return "a response must carry the id of its request"
		}
		if p := idProblem(m.ID, false); p != "" {
			return p
		}
		if !startsWithBrace(m.Result) {
			return `"result" must be an object`
		}
	case hasError:
		if m.ID == nil {
			return "an error response must carry an id (null when the request id is unknown)"
		}
		if p := idProblem(m.ID, true); p != "" {
			return p
		}
		if m.Error == nil {
			return `"error" must be an object`
		}
		if _, ok := probe.IntCode(m.Error.Code); !ok {
			return `"error.code" must be an integer`
		}
		var msg string
		if json.Unmarshal(m.Error.Message, &msg) != nil {
			return `"error.message" must be a string`
		}
	default:
		return "a message must be a request, a notification or a response"
	}
	return ""
}

// idProblem checks an id: a string or an integer; null only where allowed.
func idProblem(id json.RawMessage, nullOK bool) string {
	t := strings.TrimSpace(string(id))
	switch {
	case t == "null" && nullOK:
		return ""
	case t == "null":
		return `"id" must not be null`
	case strings.HasPrefix(t, `"`):
		return ""
	}
	if _, ok := probe.IntCode(id); ok {
		return ""
	}
	return `"id" must be a string or an integer`
}

// checkJ03 sends notifications and makes sure nothing answers them.
func checkJ03(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	const unknown = "notifications/x-mcptest-probe"
	if _, err := s.Notify(ctx, unknown, s.withMeta(map[string]any{"probe": true})); err != nil {
		return err
	}
	// A request after the notifications is the fence: by the time its
	// answer is back (and the fence's grace has passed), an answer to the
	// notification would be too.
	if r, err := s.Call(ctx, cheapMethod(e), nil); err != nil || r.Msg.Result == nil {
		e.fail("request after the notification", "a result", actual(r, err), "")
	}
	s.Quiet(ctx, fenceGrace)
	strays := 0
	for _, m := range s.Received() {
		if m.IsResponse() && !s.sentID(m.ID) {
			strays++
			e.fail("answer to a notification", "no response to "+unknown, json.RawMessage(m.Raw),
				"a notification has no id and must never be answered")
		}
	}
	if strays == 0 {
		e.pass(unknown+" left unanswered", "")
	}
	return nil
}

// checkJ04 calls a method no server has.
func checkJ04(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	r, err := s.Call(ctx, "x-mcptest/unknown-method", nil)
	expectCode(e, "x-mcptest/unknown-method", r, err, -32601, false, "")
	if e.Transport == HTTP && probe.IsModern(e.Revision) && r != nil && r.HTTP != nil {
		if r.HTTP.Status == 404 {
			e.pass("HTTP status of an unknown method", "")
		} else {
			e.fail("HTTP status of an unknown method", 404, r.HTTP.Status, "the modern era answers an unknown method with 404")
		}
	}
	return nil
}

// checkJ05 writes a truncated JSON text, then a valid request.
func checkJ05(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	// A truncated text changes nothing but, at worst, the state of the
	// server's parser, which stillServes shows has recovered.
	e.markUnchanged()
	hr, err := s.Send(ctx, []byte(`{"jsonrpc":`), "", nil, func(m *probe.Message) bool { return m.IsResponse() })
	if err != nil {
		return err
	}
	const name = "malformed JSON"
	if hr != nil && hr.Status >= 400 && hr.Status < 500 {
		// Streamable HTTP: "If the server cannot accept the input, it MUST
		// return an HTTP error status code (e.g., 400 Bad Request)"; the
		// body MAY hold a JSON-RPC error "that has no id", so a bare 4xx
		// is a refusal.
		if m, err := probe.Parse(hr.Body); err == nil && m.IsResponse() && !m.IDIsNull() {
			e.fail(name, "an error without an id", "id "+orAbsent(m.ID), "the request id cannot be known, so the error must have none")
		} else {
			e.pass(name, fmt.Sprintf("HTTP %d", hr.Status))
		}
		stillServes(ctx, e, s)
		return nil
	}
	m, err := s.WaitFenced(ctx, func(m *probe.Message) bool { return m.IsResponse() })
	switch {
	case err != nil:
		e.fail(name, "a JSON-RPC error with code -32700 and a null id", err.Error(), "")
	default:
		code, ok := m.ErrorCode()
		switch {
		case !ok || code != -32700:
			e.fail(name, "a JSON-RPC error with code -32700", json.RawMessage(m.Raw), "")
		case !m.IDIsNull():
			e.fail(name, "id null", "id "+orAbsent(m.ID), "the request id cannot be known, so it must be null")
		default:
			e.pass(name, "")
		}
	}
	stillServes(ctx, e, s)
	return nil
}

// checkJ06 sends three invalid requests, each of which must be refused
// with -32600 (or at least answered), and then a valid one.
func checkJ06(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	method := cheapMethod(e)
	meta := s.withMeta(nil)
	cases := []struct {
		name string
		body map[string]any
		id   any
	}{
		{"request without a method", map[string]any{"jsonrpc": "2.0", "id": "j06-no-method", "params": map[string]any{}}, "j06-no-method"},
		{"request with a null id", map[string]any{"jsonrpc": "2.0", "id": nil, "method": method}, nil},
		{`request with "jsonrpc": "1.0"`, map[string]any{"jsonrpc": "1.0", "id": "j06-version", "method": method}, "j06-version"},
	}
	// Pings and a message without a method change no state, however the
	// server takes them.
	e.markUnchanged()
	for _, c := range cases {
		if meta != nil && c.body["method"] != nil {
			c.body["params"] = meta
		}
		id := mustMarshal(c.id)
		match := func(m *probe.Message) bool {
			return m.IsResponse() && (m.IDIsNull() || string(compactJSON(m.ID)) == string(id))
		}
		if _, err := s.Send(ctx, mustMarshal(c.body), method, meta, match); err != nil {
			return err
		}
		m, err := s.WaitFenced(ctx, match)
		var r *Reply
		if m != nil {
			r = &Reply{Msg: m}
		}
		expectCode(e, c.name, r, err, -32600, false, "an invalid request must be answered with Invalid Request")
	}
	stillServes(ctx, e, s)
	return nil
}

// checkJ07 sends requests whose params have the wrong shape.
func checkJ07(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	if e.Info.Declares(CapTools) {
		r, err := s.Call(ctx, "tools/call", map[string]any{"arguments": map[string]any{}})
		invalidParams(e, "tools/call without a name", r, err)
	}
	if e.Info.Declares(CapResources) {
		r, err := s.Call(ctx, "resources/read", map[string]any{"uri": 42})
		invalidParams(e, "resources/read with a numeric uri", r, err)
	}
	return nil
}

// invalidParams expects -32602. On modern HTTP a request without a usable
// name cannot carry a matching Mcp-Name header, so refusing it for the
// header (-32020) is just as right.
func invalidParams(e *Env, name string, r *Reply, err error) {
	if code, ok := errorCode(r); ok && err == nil && code == -32020 && e.Transport == HTTP && probe.IsModern(e.Revision) {
		e.pass(name, "refused as a header mismatch")
		return
	}
	expectCode(e, name, r, err, -32602, false, "")
}

// checkJ08 sends a batch of two pings.
func checkJ08(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	body := []byte(`[` + string(probe.Request("j08-a", "ping", nil)) + `,` + string(probe.Request("j08-b", "ping", nil)) + `]`)
	// Two pings change no state, whether the server runs them or not.
	e.markUnchanged()
	hr, err := s.Send(ctx, body, "", nil, nil)
	if err != nil {
		return err
	}
	accepts := s.Revision() == probe.Rev20250326
	if accepts {
		a, errA := s.WaitFenced(ctx, func(m *probe.Message) bool { return m.HasID("j08-a") })
		b, errB := s.WaitFenced(ctx, func(m *probe.Message) bool { return m.HasID("j08-b") })
		if errA != nil || errB != nil || a.Result == nil || b.Result == nil {
			e.fail("batch of two pings", "a result for each ping", fmt.Sprintf("%v / %v", errA, errB), "2025-03-26 requires receivers to accept batches")
		} else {
			e.pass("batch of two pings", "")
		}
		return nil
	}
	m, err := s.WaitFenced(ctx, func(m *probe.Message) bool { return m.IsResponse() })
	switch {
	case hr != nil && hr.Status >= 400:
		e.pass("batch refused", fmt.Sprintf("HTTP %d", hr.Status))
	case err != nil:
		e.fail("batch of two pings", "an error response (batches are not supported from 2025-06-18)", err.Error(),
			"the batch was dropped silently; a client would wait forever")
	case m.Error != nil:
		e.pass("batch refused", "")
	default:
		// The 2025-06-18 changelog only removes batching ("Remove support
		// for JSON-RPC batching"); no MUST asks a server to refuse one, so
		// one that still answers it is compliant.
		e.pass("batch processed", "batching was removed in 2025-06-18, but refusing a batch is not required")
	}
	return nil
}

// checkJ09 runs an ordinary session and looks at every stdout line.
func checkJ09(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	_, _ = s.Call(ctx, cheapMethod(e), nil)
	for _, l := range declaredLists(e) {
		_, _ = s.Call(ctx, l.method, nil)
	}
	s.Quiet(ctx, quietWindow)
	lines := s.NonJSON()
	for i, l := range lines {
		if i == 5 {
			e.fail(fmt.Sprintf("%d more non-message lines", len(lines)-5), nil, nil, "")
			break
		}
		what := string(l.Data)
		if strings.TrimSpace(what) == "" {
			what = fmt.Sprintf("%q (blank line)", what)
		}
		e.fail("stdout line", "a JSON-RPC message", what, "the server must not write anything but MCP messages to stdout; logs belong on stderr")
	}
	if len(lines) == 0 {
		e.pass("every stdout line is a message", "")
	}
	return nil
}
