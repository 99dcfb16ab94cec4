//go:build unix

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestHTTPEchoRoundTrip(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u})
	if got := s.Transport(); got != TransportStreamable {
		t.Errorf("Transport = %q", got)
	}
	if got := s.ProtocolVersion(); got != DefaultProtocolVersion {
		t.Errorf("ProtocolVersion = %q", got)
	}
	if name, version := s.ServerInfo(); name != "mcptest-demo" || version != "1.0.0" {
		t.Errorf("ServerInfo = %q %q", name, version)
	}
	if s.SessionID() == "" || s.PID() != 0 || s.StderrTail(0) != "" {
		t.Errorf("SessionID %q PID %d", s.SessionID(), s.PID())
	}
	if exited, err := s.Exited(); exited || err != nil {
		t.Errorf("Exited = %v %v", exited, err)
	}

	out := callTool(t, s, "echo", `{"message":"hello, http"}`)
	if out.RPCError != nil || out.IsError() || toolText(t, out.Result) != "hello, http" {
		t.Fatalf("outcome %+v", out)
	}
	if len(out.Frames) != 2 || out.Frames[0].Direction != Sent || out.Frames[1].Direction != Received {
		t.Fatalf("frames = %+v", out.Frames)
	}
	var req struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(out.Frames[0].Raw), &req); err != nil {
		t.Fatal(err)
	}
	wantSent := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello, http"}}}`, req.ID)
	if out.Frames[0].Raw != wantSent {
		t.Errorf("sent frame\n got %s\nwant %s", out.Frames[0].Raw, wantSent)
	}
	wantRecv := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, req.ID, out.Result)
	if out.Frames[1].Raw != wantRecv {
		t.Errorf("received frame\n got %s\nwant %s", out.Frames[1].Raw, wantRecv)
	}
	if out.HTTPStatus != http.StatusOK || mediaType(out.Headers.Get("Content-Type")) != "application/json" {
		t.Errorf("HTTP %d, headers %v", out.HTTPStatus, out.Headers)
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
	if out.Duration <= 0 {
		t.Errorf("Duration = %v", out.Duration)
	}
}

func TestHTTPResultsAndErrors(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u})

	out := callTool(t, s, "json_blob", `{}`)
	want := `{"content":[{"type":"text","text":"{\"id\":42,\"tags\":[\"a\",\"b\"],\"nested\":{\"ok\":true}}"},{"type":"text","text":"second block"}]}`
	if string(out.Result) != want {
		t.Errorf("raw result\n got %s\nwant %s", out.Result, want)
	}

	out = callTool(t, s, "fail", "")
	if out.RPCError != nil || !out.IsError() || toolText(t, out.Result) != "something went wrong" {
		t.Errorf("isError outcome: %+v %s", out.RPCError, out.Result)
	}
	if !strings.Contains(out.Frames[0].Raw, `"arguments":{}`) {
		t.Errorf("request %s lacks empty arguments", out.Frames[0].Raw)
	}

	out = callTool(t, s, "no_such_tool", `{}`)
	if out.RPCError == nil || out.RPCError.Code != -32602 || out.Result != nil {
		t.Errorf("unknown tool: %+v %s", out.RPCError, out.Result)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.Request(ctx, "tools/list", nil)
	if err != nil || out.RPCError != nil || !strings.Contains(string(out.Result), `"name":"echo"`) {
		t.Errorf("tools/list: %v %+v", err, out)
	}
	out, err = s.Request(ctx, "resources/read", json.RawMessage(`{"uri":"demo://items/7"}`))
	if err != nil || !strings.Contains(string(out.Result), "item 7") {
		t.Errorf("resources/read: %v %+v", err, out)
	}
}

func TestHTTPConcurrentCalls(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u})
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			msg := fmt.Sprintf("message %d", i)
			args, _ := json.Marshal(map[string]string{"message": msg})
			out, err := s.CallTool(ctx, "echo", args)
			if err != nil {
				errs <- fmt.Errorf("call %d: %w", i, err)
				return
			}
			if !strings.Contains(string(out.Result), `"text":"`+msg+`"`) {
				errs <- fmt.Errorf("call %d got %s", i, out.Result)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
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

func TestHTTPCallTimeoutLeavesSessionUsable(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	out, err := s.CallTool(ctx, "slow", json.RawMessage(`{"ms":5000}`))
	if !isTimeout(err) {
		t.Fatalf("err = %v, want ErrTimeout wrapping DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("timeout took %v", d)
	}
	if out == nil || out.Duration < 100*time.Millisecond {
		t.Fatalf("outcome = %+v", out)
	}
	if got := toolText(t, callTool(t, s, "echo", `{"message":"still here"}`).Result); got != "still here" {
		t.Fatalf("echo after timeout = %q", got)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := s.CallTool(ctx, "slow", json.RawMessage(`{"ms":5000}`)); !isCanceled(err) {
		t.Fatalf("cancel: err = %v", err)
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

func TestHTTPCloseInterruptsCalls(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s, err := StartHTTP(context.Background(), HTTPConfig{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := s.CallTool(context.Background(), "slow", json.RawMessage(`{"ms":60000}`))
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !isErr(err, ErrClosed) {
			t.Fatalf("err = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("call still waiting after Close")
	}
	if _, err := s.CallTool(context.Background(), "echo", nil); !isErr(err, ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
}

// TestHTTPServerDiesMidCall: the demo's crash tool exits the process while
// its POST is in flight.
func TestHTTPServerDiesMidCall(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	s := startURLSession(t, HTTPConfig{URL: u})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	out, err := s.CallTool(ctx, "crash", nil)
	if !isErr(err, ErrTransport) {
		t.Fatalf("err = %v, want ErrTransport", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
	if out == nil || len(out.Frames) != 1 {
		t.Fatalf("outcome = %+v", out)
	}
	// Refused, or reset while the process is going.
	if _, err := s.CallTool(ctx, "echo", json.RawMessage(`{"message":"x"}`)); !isErr(err, ErrTransport) {
		t.Fatalf("call to a dead server: %v", err)
	}
}
