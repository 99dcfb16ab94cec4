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

func TestSSEEchoRoundTrip(t *testing.T) {
	u, _ := startDemoURL(t, "--sse")
	if !strings.HasSuffix(u, "/sse") {
		t.Fatalf("url = %q", u)
	}
	// 2024-11-05 with no transport named means legacy SSE.
	s := startURLSession(t, HTTPConfig{URL: u, ProtocolVersion: "2024-11-05"})
	if s.Transport() != TransportSSE || s.ProtocolVersion() != "2024-11-05" || s.SessionID() == "" {
		t.Fatalf("transport %q, version %q, session %q", s.Transport(), s.ProtocolVersion(), s.SessionID())
	}
	out := callTool(t, s, "echo", `{"message":"over sse"}`)
	if toolText(t, out.Result) != "over sse" || out.RPCError != nil {
		t.Fatalf("outcome %+v", out)
	}
	if out.HTTPStatus != http.StatusAccepted {
		t.Errorf("HTTPStatus = %d, want 202", out.HTTPStatus)
	}
	if len(out.Frames) != 2 || out.Frames[1].Event != "message" {
		t.Fatalf("frames = %+v", out.Frames)
	}
	var req struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal([]byte(out.Frames[0].Raw), &req)
	if want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, req.ID, out.Result); out.Frames[1].Raw != want {
		t.Errorf("received frame\n got %s\nwant %s", out.Frames[1].Raw, want)
	}

	out = callTool(t, s, "json_blob", `{}`)
	want := `{"content":[{"type":"text","text":"{\"id\":42,\"tags\":[\"a\",\"b\"],\"nested\":{\"ok\":true}}"},{"type":"text","text":"second block"}]}`
	if string(out.Result) != want {
		t.Errorf("raw result %s", out.Result)
	}
	if out = callTool(t, s, "fail", ""); !out.IsError() || out.RPCError != nil {
		t.Errorf("fail: %+v", out)
	}
	if out = callTool(t, s, "no_such_tool", "{}"); out.RPCError == nil || out.RPCError.Code != -32602 {
		t.Errorf("unknown tool: %+v", out)
	}
}

func TestSSEConcurrentCalls(t *testing.T) {
	u, _ := startDemoURL(t, "--sse")
	s := startURLSession(t, HTTPConfig{URL: u, Transport: TransportSSE})
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			msg := fmt.Sprintf("sse %d", i)
			args, _ := json.Marshal(map[string]string{"message": msg})
			out, err := s.CallTool(ctx, "echo", args)
			if err != nil || !strings.Contains(string(out.Result), msg) {
				errs <- fmt.Errorf("call %d: %v %v", i, err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestSSETimeoutAndClose(t *testing.T) {
	u, _ := startDemoURL(t, "--sse")
	s, err := StartHTTP(context.Background(), HTTPConfig{URL: u, Transport: TransportSSE})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if _, err := s.CallTool(ctx, "slow", json.RawMessage(`{"ms":5000}`)); !isTimeout(err) {
		t.Fatalf("err = %v", err)
	}
	callTool(t, s, "echo", `{"message":"after timeout"}`)
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
			t.Fatalf("err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("call still waiting after Close")
	}
}

// TestSSEServerDies: the stream ends with the server, and so does the
// session: the call in flight and every later one fail with the reason.
func TestSSEServerDies(t *testing.T) {
	u, _ := startDemoURL(t, "--sse")
	s := startURLSession(t, HTTPConfig{URL: u, Transport: TransportSSE})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := s.CallTool(ctx, "crash", nil)
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "the session is over") {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.CallTool(ctx, "echo", json.RawMessage(`{"message":"x"}`)); !isErr(err, ErrTransport) {
		t.Fatalf("later call: %v", err)
	}
}

// TestTransportMismatch: the chosen transport is used or the start fails;
// there is no silent fallback.
func TestTransportMismatch(t *testing.T) {
	sseURL, _ := startDemoURL(t, "--sse")
	_, err := StartHTTP(context.Background(), HTTPConfig{URL: sseURL, Transport: TransportStreamable})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "HTTP 405") {
		t.Errorf("streamable against an SSE server: %v", err)
	}

	httpURL, _ := startDemoURL(t, "--http")
	start := time.Now()
	_, err = StartHTTP(context.Background(), HTTPConfig{URL: httpURL, Transport: TransportSSE, InitTimeout: 300 * time.Millisecond})
	if !isErr(err, ErrTimeout) || !strings.Contains(err.Error(), "no endpoint event") {
		t.Errorf("SSE against a Streamable HTTP server: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	// A URL that is not an event stream at all.
	_, err = StartHTTP(context.Background(), HTTPConfig{URL: strings.TrimSuffix(httpURL, "/mcp") + "/nothing", Transport: TransportSSE})
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("404 stream: %v", err)
	}
}
