package compliance

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcptest/mcptest/core/probe"
)

// registerHTTP adds the checks of this file to the registry (loadRegistry).
func registerHTTP() {
	register(
		&Check{ID: "H01", Title: "A POSTed request is answered as application/json or text/event-stream", Severity: Must,
			Section: "basic/transports.mdx#sending-messages-to-the-server", Transports: []Transport{HTTP}, run: checkH01},
		&Check{ID: "H02", Title: "A POSTed notification or response is accepted with 202 and no body", Severity: Must,
			Section: "basic/transports.mdx#sending-messages-to-the-server", Transports: []Transport{HTTP}, Eras: []Era{Legacy}, run: checkH02},
		&Check{ID: "H03", Title: "GET on the endpoint opens an event stream or returns 405", Severity: Must,
			Section: "basic/transports.mdx#listening-for-messages-from-the-server", Transports: []Transport{HTTP}, Eras: []Era{Legacy}, run: checkH03},
		&Check{ID: "H04", Title: "Session ids are visible ASCII; requests without one get 400; a deleted session gets 404", Severity: Must,
			Section: "basic/transports.mdx#session-management", Transports: []Transport{HTTP}, Eras: []Era{Legacy}, run: checkH04},
		&Check{ID: "H05", Title: "An invalid MCP-Protocol-Version header gets 400", Severity: Must,
			Section: "basic/transports.mdx#protocol-version-header", Since: probe.Rev20250618, Transports: []Transport{HTTP}, Eras: []Era{Legacy}, run: checkH05},
		&Check{ID: "H06", Title: "A local server refuses a foreign Origin (403), accepts its own, and should refuse a rebinding Host", Severity: Must,
			Section: "basic/transports.mdx#security-warning", Since: probe.Rev20250326, Transports: []Transport{HTTP}, run: checkH06},
	)
}

// postHeaders returns the headers of a POST on session s.
func postHeaders(s *Session, method string, params map[string]any) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return probe.PostHeaders(s.headerRev, s.sessionID, method, params)
}

// rawPost sends body on the session's connection details but with the
// given headers, outside the session's inbox.
func rawPost(ctx context.Context, e *Env, h http.Header, body []byte) (*probe.HTTPResponse, error) {
	return e.rawHTTP(ctx, probe.HTTPRequest{Header: h, Body: body, Until: func(ev *probe.Event) bool {
		m, err := probe.Parse([]byte(ev.Data))
		return err == nil && m.IsResponse()
	}})
}

// checkH01 looks at the Content-Type of answered requests.
func checkH01(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	var r *Reply
	if probe.IsModern(e.Revision) {
		r, err = s.Call(ctx, "server/discover", nil)
	} else {
		r, err = s.Initialize(ctx, "", false)
	}
	if err != nil && (r == nil || r.HTTP == nil) {
		return err
	}
	judgeContentType(e, "answer to the first request", r.HTTP)
	r, err = s.Call(ctx, cheapMethod(e), nil)
	if r != nil && r.HTTP != nil {
		judgeContentType(e, "answer to "+cheapMethod(e), r.HTTP)
	} else if err != nil {
		return err
	}
	return nil
}

func judgeContentType(e *Env, name string, hr *probe.HTTPResponse) {
	ct := hr.ContentType()
	if ct == "application/json" || ct == "text/event-stream" {
		e.pass(name, ct)
		return
	}
	e.fail(name, "Content-Type application/json or text/event-stream", fmt.Sprintf("HTTP %d, Content-Type %q", hr.Status, hr.Header.Get("Content-Type")), "")
}

// checkH02 posts a notification and a stray response.
func checkH02(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	if _, err := s.Initialize(ctx, "", true); err != nil {
		return err
	}
	hr, err := s.Notify(ctx, "notifications/initialized", nil)
	if err != nil {
		return err
	}
	if hr.Status == http.StatusAccepted && len(strings.TrimSpace(string(hr.Body))) == 0 && len(hr.Events) == 0 {
		e.pass("notifications/initialized", "202 Accepted")
	} else {
		e.fail("notifications/initialized", "202 Accepted with no body", fmt.Sprintf("HTTP %d, %d body bytes", hr.Status, len(hr.Body)), "")
	}
	// A response to a request the server never sent may be accepted (202)
	// or refused with an error status, but nothing in between.
	body := probe.Response([]byte(`"mcptest-never-asked"`), map[string]any{})
	hr, err = s.Send(ctx, body, "", nil, nil)
	if err != nil {
		return err
	}
	switch {
	case hr.Status == http.StatusAccepted && len(strings.TrimSpace(string(hr.Body))) == 0:
		e.pass("a JSON-RPC response", "202 Accepted")
	case hr.Status >= 400:
		e.pass("a JSON-RPC response", fmt.Sprintf("refused with HTTP %d", hr.Status))
	default:
		e.fail("a JSON-RPC response", "202 Accepted with no body, or an error status", fmt.Sprintf("HTTP %d, %d body bytes", hr.Status, len(hr.Body)), "")
	}
	return nil
}

// checkH03 opens the standalone GET stream and closes it at once.
func checkH03(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	h := postHeaders(s, "", nil)
	h.Del("Content-Type")
	h.Set("Accept", "text/event-stream")
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	e.rec.addValue("send", httpSummary("GET", 0, h, ""))
	st, err := e.httpClient().Open(ctx, probe.HTTPRequest{Method: http.MethodGet, Header: h})
	if err != nil {
		e.fail("GET", "an event stream or 405", err.Error(), "")
		return nil
	}
	st.Close()
	e.rec.addValue("recv", httpSummary("GET", st.Status, st.Header, ""))
	switch {
	case st.Status == http.StatusMethodNotAllowed:
		e.pass("GET", "405: the server offers no standalone stream")
	case st.Status == http.StatusOK && st.SSE:
		e.pass("GET", "an event stream")
	default:
		e.fail("GET", "200 text/event-stream or 405", fmt.Sprintf("HTTP %d, Content-Type %q", st.Status, st.Header.Get("Content-Type")), "")
	}
	return nil
}

// checkH04 walks a session from creation to deletion.
func checkH04(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	id := s.SessionID()
	if id == "" {
		return notApplicable("the server assigns no session id")
	}
	if visibleASCII(id) {
		e.pass("session id characters", "")
	} else {
		e.fail("session id characters", "visible ASCII (0x21-0x7E) only", fmt.Sprintf("%q", id), "")
	}
	// Without the session id: should be refused with 400.
	h := postHeaders(s, "ping", nil)
	h.Del(probe.HeaderSessionID)
	hr, err := rawPost(ctx, e, h, probe.Request("h04-no-session", "ping", nil))
	switch {
	case err != nil:
		e.fail("request without the session id", "HTTP 400", err.Error(), "")
	case hr.Status == http.StatusBadRequest:
		e.pass("request without the session id", "400")
	default:
		e.warn("request without the session id", "HTTP 400", fmt.Sprintf("HTTP %d", hr.Status), "a server that requires sessions should refuse requests without one")
	}
	// DELETE ends the session, or is not allowed.
	dh := postHeaders(s, "", nil)
	dh.Del("Content-Type")
	dr, err := e.rawHTTP(ctx, probe.HTTPRequest{Method: http.MethodDelete, Header: dh})
	switch {
	case err != nil:
		e.fail("DELETE", "2xx or 405", err.Error(), "")
		return nil
	case dr.Status == http.StatusMethodNotAllowed:
		e.pass("DELETE", "405: sessions cannot be ended by the client")
		return nil
	case dr.Status >= 200 && dr.Status < 300:
		e.pass("DELETE", fmt.Sprintf("HTTP %d", dr.Status))
	default:
		e.fail("DELETE", "2xx or 405", fmt.Sprintf("HTTP %d", dr.Status), "")
		return nil
	}
	hr, err = rawPost(ctx, e, postHeaders(s, "ping", nil), probe.Request("h04-after-delete", "ping", nil))
	switch {
	case err != nil:
		e.fail("request on the deleted session", "HTTP 404", err.Error(), "")
	case hr.Status == http.StatusNotFound:
		e.pass("request on the deleted session", "404")
	default:
		e.fail("request on the deleted session", "HTTP 404", fmt.Sprintf("HTTP %d", hr.Status), "a terminated session must answer 404 so the client starts a new one")
	}
	// The session is gone; do not delete it again on close.
	s.mu.Lock()
	s.sessionID = ""
	s.mu.Unlock()
	return nil
}

func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return s != ""
}

// checkH05 sends a request with a revision header that does not exist.
func checkH05(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	h := postHeaders(s, "ping", nil)
	h.Set(probe.HeaderProtocolVersion, "1900-01-01")
	hr, err := rawPost(ctx, e, h, probe.Request("h05", "ping", nil))
	switch {
	case err != nil:
		e.fail("MCP-Protocol-Version: 1900-01-01", "HTTP 400", err.Error(), "")
	case hr.Status == http.StatusBadRequest:
		e.pass("MCP-Protocol-Version: 1900-01-01", "400")
	default:
		e.fail("MCP-Protocol-Version: 1900-01-01", "HTTP 400", fmt.Sprintf("HTTP %d", hr.Status), "")
	}
	return nil
}

// checkH06 probes DNS-rebinding protection; it only applies to servers on
// a loopback address, where a foreign Origin is certainly invalid.
func checkH06(ctx context.Context, e *Env) error {
	u, err := url.Parse(e.target.URL)
	if err != nil {
		return fmt.Errorf("parse the server URL: %w", err)
	}
	if !isLoopback(u.Hostname()) {
		return notApplicable("the server is not on a loopback address, so which origins are valid is its own policy")
	}
	first := "initialize"
	body := probe.Request(1, "initialize", probe.InitializeParams(e.Revision, nil, e.opts.ClientVersion))
	if probe.IsModern(e.Revision) {
		first = "server/discover"
		body = probe.Request(1, first, map[string]any{"_meta": probe.ModernMeta(e.Revision, nil, e.opts.ClientVersion)})
	}
	headers := func(origin string) http.Header {
		h := probe.PostHeaders("", "", first, nil)
		if probe.IsModern(e.Revision) {
			h = probe.PostHeaders(e.Revision, "", first, nil)
		}
		if origin != "" {
			h.Set("Origin", origin)
		}
		return h
	}
	strict := e.Revision >= probe.Rev20251125
	refused := func(status int) bool {
		if strict {
			return status == http.StatusForbidden
		}
		return status >= 400 && status < 500
	}
	want := "HTTP 403"
	if !strict {
		want = "an HTTP 4xx"
	}
	hr, err := e.rawHTTP(ctx, probe.HTTPRequest{Header: headers("http://evil.example"), Body: body, Until: stopAtResponse})
	closeMinted(ctx, e, hr)
	switch {
	case err != nil:
		e.fail("Origin: http://evil.example", want, err.Error(), "")
	case refused(hr.Status):
		e.pass("Origin: http://evil.example", fmt.Sprintf("HTTP %d", hr.Status))
	default:
		e.fail("Origin: http://evil.example", want, fmt.Sprintf("HTTP %d", hr.Status), "a foreign Origin on a local server is a DNS-rebinding attack")
	}
	hr, err = e.rawHTTP(ctx, probe.HTTPRequest{Header: headers(""), Body: body, Host: "evil.example", Until: stopAtResponse})
	closeMinted(ctx, e, hr)
	// The spec's MUST is about Origin ("Servers MUST validate the Origin
	// header on all incoming connections"); it says nothing of Host, so a
	// server that serves a foreign Host is warned (the conformance suite's
	// DNS-rebinding scenario checks it), not failed.
	switch {
	case err != nil:
		e.warn("Host: evil.example", "an HTTP 4xx", err.Error(), "")
	case hr.Status >= 400 && hr.Status < 500:
		e.pass("Host: evil.example", fmt.Sprintf("HTTP %d", hr.Status))
	default:
		e.warn("Host: evil.example", "an HTTP 4xx", fmt.Sprintf("HTTP %d", hr.Status),
			"a local server reached under a foreign host name is being rebound; the spec requires only the Origin check, so this is a SHOULD")
	}
	own := u.Scheme + "://" + u.Host
	hr, err = e.rawHTTP(ctx, probe.HTTPRequest{Header: headers(own), Body: body, Until: stopAtResponse})
	closeMinted(ctx, e, hr)
	switch {
	case err != nil:
		e.fail("Origin: "+own, "HTTP 2xx", err.Error(), "")
	case hr.Status >= 200 && hr.Status < 300:
		e.pass("Origin: "+own, fmt.Sprintf("HTTP %d", hr.Status))
	default:
		e.fail("Origin: "+own, "HTTP 2xx", fmt.Sprintf("HTTP %d", hr.Status), "the server's own origin must be accepted")
	}
	return nil
}

func stopAtResponse(ev *probe.Event) bool {
	m, err := probe.Parse([]byte(ev.Data))
	return err == nil && m.IsResponse()
}

// closeMinted deletes a session a probe's initialize created, so probes
// do not leave sessions behind on the server.
func closeMinted(ctx context.Context, e *Env, hr *probe.HTTPResponse) {
	if hr == nil {
		return
	}
	if id := hr.Header.Get(probe.HeaderSessionID); id != "" {
		s := &Session{env: e, http: e.httpClient(), sessionID: id, rec: newRecorder(e.opts.Redact)}
		s.close()
	}
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
