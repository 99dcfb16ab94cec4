package oauth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"
)

// callbackPath is the path of the loopback redirect URI.
const callbackPath = "/callback"

// callback is what the authorization server's redirect brought back.
type callback struct {
	code string
	err  error
}

// loopback is the redirect endpoint of a native app (RFC 8252 §7.3): an
// HTTP server on 127.0.0.1 that takes one authorization response.
type loopback struct {
	ln     net.Listener
	srv    *http.Server
	state  string
	result chan callback
}

// listenLoopback starts the redirect endpoint on 127.0.0.1:port (0 picks
// a free port).
func listenLoopback(port int) (*loopback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("%w: the loopback redirect endpoint: %w (auth.oauth.redirect_port)", ErrAuthorization, err)
	}
	l := &loopback{ln: ln, result: make(chan callback, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, l.handle)
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// redirectURI is the URI registered and sent as redirect_uri.
func (l *loopback) redirectURI() string {
	return "http://" + l.ln.Addr().String() + callbackPath
}

// handle takes the authorization response: a code with the expected
// state, or an error. Only the first response counts.
func (l *loopback) handle(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var cb callback
	switch {
	case q.Get("error") != "":
		cb.err = fmt.Errorf("%w: the authorization server answered %s", ErrAuthorization, cut(q.Get("error")+" "+q.Get("error_description"), 300))
	case q.Get("state") != l.state:
		cb.err = fmt.Errorf("%w: the redirect carried a state other than the one sent (a forged or stale response)", ErrAuthorization)
	case q.Get("code") == "":
		cb.err = fmt.Errorf("%w: the redirect carried no code", ErrAuthorization)
	default:
		cb.code = q.Get("code")
	}
	select {
	case l.result <- cb:
	default:
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if cb.err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, "<!doctype html><title>mcptest</title><p>mcptest: authorization failed; see the terminal.</p>")
		return
	}
	fmt.Fprint(w, "<!doctype html><title>mcptest</title><p>mcptest: authorization complete. You can close this window.</p>")
}

// wait returns the code of the authorization response, or ctx's error.
func (l *loopback) wait(ctx context.Context) (string, error) {
	select {
	case cb := <-l.result:
		return cb.code, cb.err
	case <-ctx.Done():
		return "", fmt.Errorf("%w: no authorization response reached %s: %w", ErrAuthorization, l.redirectURI(), context.Cause(ctx))
	}
}

// close stops the endpoint.
func (l *loopback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = l.srv.Shutdown(ctx)
}

// follow opens authURL the way a browser whose user approves everything
// would, without a person: it follows the redirects until they reach the
// loopback endpoint. An authorization server that shows a login page
// instead stops it, with an error that says to log in interactively.
func follow(ctx context.Context, base *http.Client, authURL string, l *loopback) (string, error) {
	client := &http.Client{
		Transport: base.Transport,
		Timeout:   base.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("more than 10 redirects")
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrAuthorization, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: following the authorization redirects: %w", ErrAuthorization, err)
	}
	resp.Body.Close()
	select {
	case cb := <-l.result:
		return cb.code, cb.err
	default:
	}
	at := resp.Request.URL
	return "", fmt.Errorf("%w: a person must approve: run `mcptest auth login` once, then runs use the cached token (HTTP %d at %s://%s%s, no redirect back)",
		ErrAuthorization, resp.StatusCode, at.Scheme, at.Host, at.Path)
}
