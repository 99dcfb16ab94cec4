//go:build unix

package session

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// What only Streamable HTTP has: a session id, no process, the response
// and request headers (TestRoundTripOverEachTransport checks the rest).
func TestHTTPEchoRoundTrip(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u})
	if s.SessionID() == "" || s.PID() != 0 || s.StderrTail(0) != "" {
		t.Errorf("SessionID %q PID %d", s.SessionID(), s.PID())
	}
	if exited, err := s.Exited(); exited || err != nil {
		t.Errorf("Exited = %v %v", exited, err)
	}
	out := callTool(t, s, "echo", `{"message":"hello, http"}`)
	if toolText(t, out.Result) != "hello, http" {
		t.Fatalf("outcome %+v", out)
	}
	if mediaType(out.Headers.Get("Content-Type")) != "application/json" {
		t.Errorf("headers %v", out.Headers)
	}
	if got := out.RequestHeaders.Get("Mcp-Session-Id"); got != s.SessionID() {
		t.Errorf("request Mcp-Session-Id = %q, want %q", got, s.SessionID())
	}
	if got := out.RequestHeaders.Get("Mcp-Protocol-Version"); got != DefaultProtocolVersion {
		t.Errorf("request MCP-Protocol-Version = %q", got)
	}
	if got := out.RequestHeaders.Get("User-Agent"); got != "mcptest/dev" {
		t.Errorf("User-Agent = %q", got)
	}
}

// TestHTTPSessionHeadersAndDelete checks the wire through a recording
// proxy: initialize goes without a session id or version header, every
// later request carries both, the GET stream is opened, and Close ends the
// session with DELETE.
func TestHTTPSessionHeadersAndDelete(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	s, err := StartHTTP(context.Background(), HTTPConfig{URL: p.urlFor(t, u)})
	if err != nil {
		t.Fatal(err)
	}
	sid := s.SessionID()
	callTool(t, s, "echo", `{"message":"x"}`)
	waitFor(t, 5*time.Second, "the GET stream", func() bool {
		for _, r := range p.requests() {
			if r.Method == http.MethodGet {
				return true
			}
		}
		return false
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	reqs := p.requests()
	if len(reqs) < 4 {
		t.Fatalf("requests = %+v", reqs)
	}
	first := reqs[0]
	if first.Method != http.MethodPost || first.Header.Get("Mcp-Session-Id") != "" || first.Header.Get("Mcp-Protocol-Version") != "" {
		t.Errorf("initialize request: %s %v", first.Method, first.Header)
	}
	if got := first.Header.Get("Accept"); got != "application/json, text/event-stream" {
		t.Errorf("Accept = %q", got)
	}
	sawDelete := false
	for i, r := range reqs[1:] {
		if r.Header.Get("Mcp-Session-Id") != sid || r.Header.Get("Mcp-Protocol-Version") != DefaultProtocolVersion {
			t.Errorf("request %d (%s) headers: %v", i+1, r.Method, r.Header)
		}
		if r.Method == http.MethodGet && r.Header.Get("Accept") != "text/event-stream" {
			t.Errorf("GET Accept = %q", r.Header.Get("Accept"))
		}
		sawDelete = sawDelete || r.Method == http.MethodDelete
	}
	if !sawDelete || reqs[len(reqs)-1].Method != http.MethodDelete {
		t.Errorf("no DELETE at the end: %+v", reqs)
	}
}

func TestHTTPPinnedOlderRevision(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	s := startURLSession(t, HTTPConfig{URL: p.urlFor(t, u), ProtocolVersion: "2025-03-26"})
	if got := s.ProtocolVersion(); got != "2025-03-26" {
		t.Fatalf("ProtocolVersion = %q", got)
	}
	out := callTool(t, s, "echo", `{"message":"old"}`)
	// The header does not exist before 2025-06-18.
	if got := out.RequestHeaders.Get("Mcp-Protocol-Version"); got != "" {
		t.Errorf("MCP-Protocol-Version = %q sent for 2025-03-26", got)
	}
	for _, bad := range []HTTPConfig{
		{URL: u, ProtocolVersion: "2030-01-01"},
		{URL: u, Transport: "websocket"},
		{URL: "ftp://example.com/mcp"},
		{URL: "not a url"},
	} {
		if _, err := StartHTTP(context.Background(), bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestHTTPTimeoutOption(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u, HTTP: HTTPOptions{Timeout: 300 * time.Millisecond}})
	start := time.Now()
	_, err := s.CallTool(context.Background(), "slow", json.RawMessage(`{"ms":5000}`))
	if !isErr(err, ErrTimeout) || !strings.Contains(err.Error(), "HTTP timeout of 300ms") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
	if got := toolText(t, callTool(t, s, "echo", `{"message":"ok"}`).Result); got != "ok" {
		t.Fatalf("echo = %q", got)
	}
}
