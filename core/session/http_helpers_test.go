//go:build unix

package session

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/mcptest/mcptest/internal/servertest"
)

// startDemoURL starts the demo server with mode ("--http" or "--sse") on a
// free loopback port and returns the URL it prints. The process is killed
// when the test ends; kill stops it earlier.
func startDemoURL(t *testing.T, mode string) (u string, kill func()) {
	t.Helper()
	return servertest.StartURL(t, demoBin(t), nil, mode, "127.0.0.1:0")
}

// startURLSession starts a session and closes it when the test ends.
func startURLSession(t *testing.T, cfg HTTPConfig) *Session {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "demo"
	}
	if cfg.InitTimeout == 0 {
		cfg.InitTimeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	s, err := StartHTTP(ctx, cfg)
	if err != nil {
		t.Fatalf("StartHTTP: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// seenRequest is one request a recordingProxy forwarded.
type seenRequest struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte // as sent, for POSTs
}

// recordingProxy forwards to a backend and records every request. gate,
// when set, may answer a request itself (return true) instead.
type recordingProxy struct {
	*httptest.Server
	mu   sync.Mutex
	seen []seenRequest
	gate func(w http.ResponseWriter, r *http.Request) bool
}

// newRecordingProxy starts a proxy to backend; tls selects HTTPS.
func newRecordingProxy(t *testing.T, backend string, tls bool) *recordingProxy {
	t.Helper()
	target, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProxy{}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	rp.FlushInterval = -1 // pass SSE events on at once
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		p.mu.Lock()
		p.seen = append(p.seen, seenRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		gate := p.gate
		p.mu.Unlock()
		if gate != nil && gate(w, r) {
			return
		}
		// The demo server refuses a Host that is not loopback.
		r.Host = target.Host
		rp.ServeHTTP(w, r)
	})
	if tls {
		p.Server = httptest.NewTLSServer(handler)
	} else {
		p.Server = httptest.NewServer(handler)
	}
	t.Cleanup(p.Close)
	return p
}

// setGate replaces the gate.
func (p *recordingProxy) setGate(g func(w http.ResponseWriter, r *http.Request) bool) {
	p.mu.Lock()
	p.gate = g
	p.mu.Unlock()
}

// requests returns the requests seen so far.
func (p *recordingProxy) requests() []seenRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]seenRequest(nil), p.seen...)
}

// urlFor returns the proxy URL with the path of backend.
func (p *recordingProxy) urlFor(t *testing.T, backend string) string {
	t.Helper()
	u, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	return p.URL + u.Path
}

// waitFor polls cond for up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// isErr is errors.Is, short.
func isErr(err, target error) bool { return errors.Is(err, target) }

// isTimeout reports a call timeout: ErrTimeout wrapping DeadlineExceeded.
func isTimeout(err error) bool {
	return errors.Is(err, ErrTimeout) && errors.Is(err, context.DeadlineExceeded)
}

// isCanceled reports a cancelled call that is not a timeout.
func isCanceled(err error) bool {
	return errors.Is(err, context.Canceled) && !errors.Is(err, ErrTimeout)
}

// mediaType returns the media type of a Content-Type header, lower case.
func mediaType(contentType string) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt
}
