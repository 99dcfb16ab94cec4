package httpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// errHTTPTimeout is the cause of a request context that ran out of
// Options.Timeout, which tells it apart from the caller's deadline.
var errHTTPTimeout = errors.New("HTTP timeout")

// conn is the HTTP plumbing both URL transports share: the client with
// its TLS, timeouts and redirect policy, and the headers of every request.
type conn struct {
	cfg    Config
	url    *url.URL
	ctx    context.Context // ends when the session closes or Stop begins
	cancel context.CancelFunc
	tr     *http.Transport
	client *http.Client // no overall timeout: streams outlive it
	creds  credentials
	redact *wire.Redactor
	sink   wire.Sink
	// budget bounds the body bytes all the session's readers hold at
	// once (MaxBufferedBytes).
	budget *bodyBudget
}

// hold returns a new, empty claim on the session's body budget, for one
// body or stream.
func (h *conn) hold() *bodyHold { return &bodyHold{budget: h.budget} }

// newConn builds the client for cfg, whose defaults are filled in. Its
// context is a child of ctx, the session's.
func newConn(ctx context.Context, cfg Config, sink wire.Sink) (*conn, error) {
	u, _ := url.Parse(cfg.URL) // validated by withDefaults
	tlsConf, err := TLSConfig(cfg.HTTP.TLS)
	if err != nil {
		return nil, fmt.Errorf("url server %q: %w", cfg.Name, err)
	}
	var secrets []string
	for _, hd := range cfg.Headers {
		if hd.Env != "" {
			secrets = append(secrets, hd.Value)
		}
	}
	secrets = append(secrets, cfg.Auth.BearerToken)
	if o := cfg.Auth.OAuth; o != nil {
		secrets = append(secrets, o.ClientSecret)
	}
	h := &conn{cfg: cfg, url: u, redact: wire.NewRedactor(secrets, cfg.secretHeaderNames()), sink: sink}
	h.ctx, h.cancel = context.WithCancel(ctx)
	h.budget = &bodyBudget{limit: cfg.MaxBufferedBytes}

	dialer := &net.Dialer{Timeout: cfg.HTTP.ConnectTimeout, KeepAlive: 30 * time.Second}
	h.tr = &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       tlsConf,
		TLSHandshakeTimeout:   cfg.HTTP.ConnectTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   100, // concurrent calls each hold a connection
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	h.client = &http.Client{Transport: h.tr, CheckRedirect: h.checkRedirect}
	tokenClient := &http.Client{Transport: h.tr, CheckRedirect: h.checkRedirect, Timeout: cfg.HTTP.Timeout}
	h.creds = newCredentials(cfg, tokenClient, h.redact)
	if az := cfg.Auth.Authorizer; az != nil {
		h.client.Transport = &challengeTransport{base: h.tr, az: az, client: tokenClient, redact: h.redact}
	}
	return h, nil
}

// checkRedirect follows at most Options.MaxRedirects redirects, and
// keeps credentials and secret headers from leaving the origin the user
// named.
func (h *conn) checkRedirect(req *http.Request, via []*http.Request) error {
	limit := *h.cfg.HTTP.MaxRedirects
	if limit == 0 {
		return http.ErrUseLastResponse
	}
	if len(via) > limit {
		return fmt.Errorf("stopped after %d redirects (http.max_redirects)", limit)
	}
	first := via[0].URL
	if req.URL.Host != first.Host || (first.Scheme == "https" && req.URL.Scheme != "https") {
		req.Header.Del("Authorization")
		for _, name := range h.cfg.secretHeaderNames() {
			req.Header.Del(name)
		}
	}
	return nil
}

// newRequest builds a request with the custom headers, the User-Agent and
// the credentials. ctx bounds it.
func (h *conn) newRequest(ctx context.Context, method, target string, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("server %q: %s %s: %w", h.cfg.Name, method, target, err)
	}
	for _, hd := range h.cfg.Headers {
		req.Header.Add(hd.Name, hd.Value)
	}
	if !h.cfg.HTTP.NoUserAgent && req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "mcptest/"+h.cfg.ClientVersion)
	}
	auth, err := h.creds.authorization(ctx)
	if err != nil {
		return nil, err
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	return req, nil
}

// exchangeContext bounds one exchange by ctx, the HTTP timeout and the
// session's life.
func (h *conn) exchangeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeoutCause(ctx, h.cfg.HTTP.Timeout, errHTTPTimeout)
	stop := context.AfterFunc(h.ctx, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// failure classifies err, which ended an exchange that caller asked for
// and reqCtx bounded: the session closed, the caller gave up, the HTTP
// timeout passed, or the network failed.
func (h *conn) failure(caller, reqCtx context.Context, method, target string, err error, start time.Time) error {
	switch {
	case h.ctx.Err() != nil:
		return wire.ErrClosed
	case caller.Err() != nil:
		return wire.CtxError(caller, time.Since(start))
	case errors.Is(context.Cause(reqCtx), errHTTPTimeout):
		return fmt.Errorf("server %q: %s %s: %w: no complete response within the HTTP timeout of %s",
			h.cfg.Name, method, target, wire.ErrTimeout, h.cfg.HTTP.Timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var op *net.OpError
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("the server closed the connection without answering: %w", err)
	case errors.As(err, &op) && op.Op == "dial" && op.Timeout():
		err = fmt.Errorf("connect timed out after %s: %w", h.cfg.HTTP.ConnectTimeout, err)
	}
	return &HTTPError{Server: h.cfg.Name, Method: method, URL: target, Err: err}
}

// statusError describes an HTTP error status whose body is not a JSON-RPC
// error.
func (h *conn) statusError(method, target string, resp *http.Response, body []byte) *HTTPError {
	e := &HTTPError{Server: h.cfg.Name, Method: method, URL: target, Status: resp.StatusCode,
		Header: resp.Header, Body: excerpt(body, h.redact)}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		e.Hint = h.creds.hint()
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		e.Hint = "redirect to " + wire.Sanitize(resp.Header.Get("Location")) + " not followed (http.max_redirects: 0)"
	}
	return e
}

// mediaType returns the media type of a Content-Type header, lower case.
func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return mt
}

// exchangeKind describes the message an HTTP exchange carried.
type exchangeKind struct {
	c       wire.Call // the session's call, or nil
	request bool      // a request: a response is due
	init    bool      // the initialize request
	id      string    // the request id as JSON text
}

// kindOf describes msg, the body of a POST made for c.
func kindOf(msg []byte, c wire.Call) *exchangeKind {
	if c != nil {
		return &exchangeKind{c: c, request: true, id: c.ID()}
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(msg, &m)
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	return &exchangeKind{request: m.Method != "" && hasID, init: m.Method == "initialize", id: string(m.ID)}
}

// answered reports whether the request of x has had its response.
func (x *exchangeKind) answered(sink wire.Sink, seen bool) bool {
	if x.c != nil {
		return !sink.Pending(x.c)
	}
	return seen
}

// splitBody returns the messages of a JSON body: its elements if it is an
// array (a JSON-RPC batch), else the body itself.
func splitBody(body []byte) [][]byte {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return [][]byte{body}
	}
	var batch []json.RawMessage
	if json.Unmarshal(trimmed, &batch) != nil {
		return [][]byte{body}
	}
	out := make([][]byte, len(batch))
	for i, m := range batch {
		out[i] = m
	}
	return out
}

// responseID returns the id of msg if it is a response (no method), else "".
func responseID(msg []byte) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != "" {
		return ""
	}
	return string(m.ID)
}

// deliverErrorBody handles the body of an HTTP error response that holds
// JSON-RPC error responses. It reports whether it held any, and whether
// one carried the id of the exchange's request. An error with a null or
// missing id answers the exchange's own request, since an HTTP error
// status on a POST can only be about what that POST carried.
//
// A 401 or 403 is never delivered: whatever its body says (often an
// OAuth error such as {"error":"invalid_token"}), it is an authentication
// failure, which statusError describes with the WWW-Authenticate header
// and the credentials configured. Nor is a body whose "error" is not an
// object: that is no JSON-RPC error.
func (h *conn) deliverErrorBody(body []byte, x *exchangeKind, status int) (found, seen bool) {
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return false, false
	}
	for _, msg := range splitBody(body) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(msg, &m) != nil || m.Method != "" || !isObject(m.Error) {
			continue
		}
		found = true
		if len(m.ID) > 0 && string(m.ID) != "null" && (x.c == nil || string(m.ID) == x.c.ID()) {
			seen = seen || string(m.ID) == x.id
			h.sink.Route(msg, wire.Source{Owner: x.c})
			continue
		}
		switch {
		case x.c != nil:
			h.sink.AnswerError(x.c, msg, m.Error)
		case x.init:
			h.sink.FailInit(fmt.Errorf("HTTP %d: %w", status, wire.ParseRPCError(m.Error)))
		}
	}
	return found, seen
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}
