//go:build unix

package session

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// isToolCall reports whether r is a POST carrying tools/call, restoring
// its body for the proxy.
func isToolCall(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(b)))
	return strings.Contains(string(b), `"method":"tools/call"`)
}

func TestTLS(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, true)
	target := p.urlFor(t, u)

	_, err := StartHTTP(context.Background(), HTTPConfig{URL: target})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("untrusted certificate: %v", err)
	}

	bundle := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.Certificate().Raw})
	if err := os.WriteFile(bundle, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	s := startURLSession(t, HTTPConfig{URL: target, HTTP: HTTPOptions{TLS: TLSOptions{CABundlePath: bundle}}})
	if got := toolText(t, callTool(t, s, "echo", `{"message":"over tls"}`).Result); got != "over tls" {
		t.Fatalf("echo = %q", got)
	}
	s = startURLSession(t, HTTPConfig{URL: target, HTTP: HTTPOptions{TLS: TLSOptions{InsecureSkipVerify: true}}})
	callTool(t, s, "echo", `{"message":"insecure"}`)

	for _, bad := range []TLSOptions{{CABundlePath: filepath.Join(t.TempDir(), "missing.pem")}, {MinVersion: "1.1"}} {
		if _, err := StartHTTP(context.Background(), HTTPConfig{URL: target, HTTP: HTTPOptions{TLS: bad}}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.pem")
	_ = os.WriteFile(empty, []byte("not pem"), 0o600)
	if _, err := StartHTTP(context.Background(), HTTPConfig{URL: target, HTTP: HTTPOptions{TLS: TLSOptions{CABundlePath: empty}}}); err == nil ||
		!strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("empty bundle: %v", err)
	}
}

func TestTLSMinVersion(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.TLS = &tls.Config{MaxVersion: tls.VersionTLS12}
	srv.StartTLS()
	defer srv.Close()
	opts := HTTPOptions{TLS: TLSOptions{InsecureSkipVerify: true, MinVersion: "1.3"}}
	_, err := StartHTTP(context.Background(), HTTPConfig{URL: srv.URL + "/mcp", HTTP: opts})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "protocol version") {
		t.Fatalf("TLS 1.2 server with a 1.3 floor: %v", err)
	}
}

// TestConnectTimeout: a listener that accepts TCP but never speaks TLS
// holds the handshake; the connect timeout ends it.
func TestConnectTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	start := time.Now()
	_, err = StartHTTP(context.Background(), HTTPConfig{URL: "https://" + ln.Addr().String() + "/mcp",
		HTTP: HTTPOptions{ConnectTimeout: 200 * time.Millisecond}})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "TLS handshake timeout") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestRedirects(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, p.urlFor(t, u), http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()

	s := startURLSession(t, HTTPConfig{URL: redirector.URL + "/mcp",
		Auth:    Auth{BearerToken: testToken},
		Headers: []Header{{Name: "X-Tenant", Value: "acme"}, {Name: "X-Api-Key", Value: "env-secret", Env: "K"}}})
	callTool(t, s, "echo", `{"message":"redirected"}`)
	// Another origin never gets the credentials or the secret headers.
	for _, r := range p.requests() {
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-Api-Key") != "" || r.Header.Get("X-Tenant") != "acme" {
			t.Errorf("%s after redirect: %v", r.Method, r.Header)
		}
	}

	none := 0
	_, err := StartHTTP(context.Background(), HTTPConfig{URL: redirector.URL + "/mcp", HTTP: HTTPOptions{MaxRedirects: &none}})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "HTTP 307") || !strings.Contains(err.Error(), "max_redirects") {
		t.Fatalf("redirects disabled: %v", err)
	}
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer loop.Close()
	two := 2
	_, err = StartHTTP(context.Background(), HTTPConfig{URL: loop.URL + "/mcp", HTTP: HTTPOptions{MaxRedirects: &two}})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "stopped after 2 redirects") {
		t.Fatalf("redirect loop: %v", err)
	}
}

func TestWaitForReady(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	var polls atomic.Int32
	p := newRecordingProxy(t, u, false)
	p.setGate(func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/healthz" {
			return false
		}
		if polls.Add(1) < 3 {
			http.Error(w, "starting", http.StatusServiceUnavailable)
		}
		return true
	})
	s := startURLSession(t, HTTPConfig{URL: p.urlFor(t, u), WaitForReady: "/healthz"})
	if n := polls.Load(); n != 3 {
		t.Errorf("polled %d times, want 3", n)
	}
	callTool(t, s, "echo", `{"message":"ready"}`)

	startURLSession(t, HTTPConfig{URL: p.urlFor(t, u), WaitForReady: p.URL + "/healthz", ReadyTimeout: 50 * time.Millisecond})
	p.setGate(func(w http.ResponseWriter, r *http.Request) bool {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return true
	})
	start := time.Now()
	_, err := StartHTTP(context.Background(), HTTPConfig{URL: p.urlFor(t, u), WaitForReady: "/healthz", ReadyTimeout: 400 * time.Millisecond})
	if !isErr(err, ErrTimeout) || !strings.Contains(err.Error(), "HTTP 503") || !strings.Contains(err.Error(), "/healthz") {
		t.Fatalf("never ready: %v", err)
	}
	if d := time.Since(start); d < 350*time.Millisecond || d > 2*time.Second {
		t.Errorf("gave up after %v", d)
	}
}

// TestWaitForReadyLateServer: nothing listens on the port at first.
func TestWaitForReadyLateServer(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	late := newRecordingProxy(t, u, false)
	late.setGate(func(w http.ResponseWriter, r *http.Request) bool {
		return r.URL.Path == "/healthz" // 200, empty
	})
	go func() {
		time.Sleep(400 * time.Millisecond)
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return
		}
		srv := &http.Server{Handler: late.Config.Handler}
		go func() { _ = srv.Serve(ln) }()
		t.Cleanup(func() { _ = srv.Close() })
	}()
	start := time.Now()
	s := startURLSession(t, HTTPConfig{URL: "http://" + addr + "/mcp", WaitForReady: "/healthz"})
	if d := time.Since(start); d < 350*time.Millisecond {
		t.Errorf("ready after %v, before the server started", d)
	}
	callTool(t, s, "echo", `{"message":"late"}`)
}

func TestConnectionClosedMidCall(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	s := startURLSession(t, HTTPConfig{URL: p.urlFor(t, u)})
	p.setGate(func(w http.ResponseWriter, r *http.Request) bool {
		if !isToolCall(r) {
			return false
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\""))
			conn.Close()
		}
		return true
	})
	out, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{"message":"x"}`))
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "closed the connection") {
		t.Fatalf("err = %v", err)
	}
	if out.HTTPStatus != http.StatusOK {
		t.Errorf("HTTPStatus = %d", out.HTTPStatus)
	}
	p.setGate(nil)
	callTool(t, s, "echo", `{"message":"recovered"}`)
}

func TestHTTPErrorStatuses(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	s := startURLSession(t, HTTPConfig{URL: p.urlFor(t, u)})
	answer := func(status int, contentType, body string) {
		p.setGate(func(w http.ResponseWriter, r *http.Request) bool {
			if !isToolCall(r) {
				return false
			}
			w.Header().Set("Content-Type", contentType)
			w.Header().Set("X-Request-Id", "req-77")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
			return true
		})
	}

	// A JSON-RPC error with an HTTP error status is an outcome, not a failure.
	answer(http.StatusBadRequest, "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad request"}}`)
	out := callTool(t, s, "echo", `{"message":"x"}`)
	if out.RPCError == nil || out.RPCError.Code != -32600 || out.HTTPStatus != http.StatusBadRequest || out.Headers.Get("X-Request-Id") != "req-77" {
		t.Fatalf("outcome %+v", out)
	}
	if len(out.Frames) != 2 {
		t.Errorf("frames = %+v", out.Frames)
	}

	answer(http.StatusBadGateway, "text/html", "<html><body>Bad \x1b[31mGateway</body></html>")
	out, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{"message":"x"}`))
	if !isErr(err, ErrTransport) || isErr(err, ErrAuth) || !strings.Contains(err.Error(), "HTTP 502 Bad Gateway") ||
		!strings.Contains(err.Error(), `Bad \x1b[31mGateway`) {
		t.Fatalf("err = %v", err)
	}
	if out.HTTPStatus != http.StatusBadGateway {
		t.Errorf("HTTPStatus = %d", out.HTTPStatus)
	}

	answer(http.StatusOK, "text/plain", "hello")
	if _, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{}`)); !isErr(err, ErrBadResponse) {
		t.Errorf("text/plain 200: %v", err)
	}
	answer(http.StatusAccepted, "application/json", "")
	if _, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{}`)); !isErr(err, ErrBadResponse) ||
		!strings.Contains(err.Error(), "no body") {
		t.Errorf("202 to a request: %v", err)
	}
	answer(http.StatusOK, "application/json", `{"jsonrpc":"2.0","id":12345,"result":{}}`)
	if _, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{}`)); !isErr(err, ErrBadResponse) ||
		!strings.Contains(err.Error(), "does not answer request id") {
		t.Errorf("wrong id: %v", err)
	}

	// 404 on a session id: the session is over, and later calls say so at once.
	answer(http.StatusNotFound, "text/plain", "session not found")
	_, err = s.CallTool(context.Background(), "echo", json.RawMessage(`{}`))
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "no longer knows the session") {
		t.Fatalf("404: %v", err)
	}
	p.setGate(nil)
	if _, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{"message":"x"}`)); !isErr(err, ErrTransport) ||
		!strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("call after 404: %v", err)
	}
}

// TestInitializeRejected: a JSON-RPC error to initialize, with or without
// its id, under an HTTP error status, shows the server's own message.
func TestInitializeRejected(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	for _, id := range []string{"null", "1"} {
		p.setGate(func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"unsupported protocol version"}}`, id)
			return true
		})
		start := time.Now()
		_, err := StartHTTP(context.Background(), HTTPConfig{URL: p.urlFor(t, u)})
		if err == nil || !strings.Contains(err.Error(), "unsupported protocol version") {
			t.Errorf("id %s: %v", id, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("id %s: took %v", id, d)
		}
	}
}
