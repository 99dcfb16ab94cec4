//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// transportCase is one way a session reaches the demo server. The tests in
// this file run one body over each of them, so that what the Session API
// promises is checked alike over stdio, Streamable HTTP and legacy SSE;
// what only one transport has stays in its own file (session_test.go,
// http_test.go, legacy_test.go).
type transportCase struct {
	name string
	// kind is what Session.Transport reports.
	kind string
	// start starts the demo server, reached this way, and a session on
	// it offering client; the session is closed when the test ends.
	start func(t *testing.T, client ClientOptions) *Session
	// version is the revision the session speaks: legacy SSE is pinned
	// to 2024-11-05, the revision it belongs to.
	version string
	// url says the server is a URL: the session has an id from the
	// server and no process of ours.
	url bool
	// status is the HTTP status of a call's POST: 0 over stdio, 202 over
	// legacy SSE (the answer comes on the stream).
	status int
	// event is the SSE event type a response frame arrives as, "" when
	// it does not come over SSE.
	event string
	// dies is what calls fail with once the server has died, and diesText
	// what the error says.
	dies     error
	diesText string
	// concurrent is how many calls TestConcurrentCallsOverEachTransport
	// runs at once.
	concurrent int
}

// transports are the three ways, in the order the subtests run.
var transports = []transportCase{
	{
		name: "stdio", kind: TransportStdio,
		start: func(t *testing.T, client ClientOptions) *Session {
			return startDemo(t, func(c *StdioConfig) { c.Client = client })
		},
		version:    DefaultProtocolVersion,
		dies:       ErrServerExited,
		diesText:   `tools/call "crash": server "demo" exited (exit status 3)`,
		concurrent: 50,
	},
	{
		name: "streamable", kind: TransportStreamable,
		start: func(t *testing.T, client ClientOptions) *Session {
			u, _ := startDemoURL(t, "--http")
			return startURLSession(t, HTTPConfig{URL: u, Client: client})
		},
		version:    DefaultProtocolVersion,
		url:        true,
		status:     200,
		dies:       ErrTransport,
		concurrent: 50,
	},
	{
		name: "sse", kind: TransportSSE,
		start: func(t *testing.T, client ClientOptions) *Session {
			u, _ := startDemoURL(t, "--sse")
			// 2024-11-05 with no transport named means legacy SSE.
			return startURLSession(t, HTTPConfig{URL: u, ProtocolVersion: "2024-11-05", Client: client})
		},
		version:    "2024-11-05",
		url:        true,
		status:     202,
		event:      "message",
		dies:       ErrTransport,
		diesText:   "the session is over",
		concurrent: 30,
	},
}

// eachTransport runs test once per transport, as a subtest.
func eachTransport(t *testing.T, test func(t *testing.T, tr transportCase)) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) { test(t, tr) })
	}
}

// eachSession runs f on a session over each transport that offers
// client.
func eachSession(t *testing.T, client ClientOptions, f func(t *testing.T, s *Session)) {
	eachTransport(t, func(t *testing.T, tr transportCase) { f(t, tr.start(t, client)) })
}

// A call's outcome is the server's answer as sent, with both frames as
// they crossed the wire.
func TestRoundTripOverEachTransport(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transportCase) {
		s := tr.start(t, ClientOptions{})
		if got := s.Transport(); got != tr.kind {
			t.Errorf("Transport = %q, want %q", got, tr.kind)
		}
		if got := s.ProtocolVersion(); got != tr.version {
			t.Errorf("ProtocolVersion = %q, want %q", got, tr.version)
		}
		if name, version := s.ServerInfo(); name != "mcptest-demo" || version != "1.0.0" {
			t.Errorf("ServerInfo = %q %q", name, version)
		}
		if tr.url != (s.SessionID() != "") || tr.url != (s.PID() == 0) {
			t.Errorf("SessionID %q, PID %d", s.SessionID(), s.PID())
		}

		out := callTool(t, s, "echo", `{"message":"hello, wire"}`)
		if out.RPCError != nil || out.IsError() || toolText(t, out.Result) != "hello, wire" {
			t.Fatalf("outcome %+v", out)
		}
		if len(out.Frames) != 2 || out.Frames[0].Direction != Sent || out.Frames[1].Direction != Received {
			t.Fatalf("frames = %+v", out.Frames)
		}
		var req struct {
			ID     int64  `json:"id"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal([]byte(out.Frames[0].Raw), &req); err != nil || req.Method != "tools/call" {
			t.Fatalf("sent frame %s: %v", out.Frames[0].Raw, err)
		}
		wantSent := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello, wire"}}}`, req.ID)
		if out.Frames[0].Raw != wantSent {
			t.Errorf("sent frame\n got %s\nwant %s", out.Frames[0].Raw, wantSent)
		}
		wantRecv := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, req.ID, out.Result)
		if out.Frames[1].Raw != wantRecv {
			t.Errorf("received frame\n got %s\nwant %s", out.Frames[1].Raw, wantRecv)
		}
		if out.Frames[1].Event != tr.event {
			t.Errorf("response frame event %q, want %q", out.Frames[1].Event, tr.event)
		}
		if out.HTTPStatus != tr.status {
			t.Errorf("HTTPStatus = %d, want %d", out.HTTPStatus, tr.status)
		}
		if out.Duration <= 0 {
			t.Errorf("Duration = %v", out.Duration)
		}
	})
}

// Results are the server's bytes; an isError result and a JSON-RPC error
// are outcomes, not failures.
func TestResultsAndErrorsOverEachTransport(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transportCase) {
		s := tr.start(t, ClientOptions{})
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
	})
}

// Calls on one session run concurrently, and each gets its own answer.
func TestConcurrentCallsOverEachTransport(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transportCase) {
		s := tr.start(t, ClientOptions{})
		var wg sync.WaitGroup
		errs := make(chan error, tr.concurrent)
		for i := range tr.concurrent {
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
				if got := toolText(t, out.Result); got != msg {
					errs <- fmt.Errorf("call %d got %q", i, got)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}

// A call that runs out of time fails with ErrTimeout, promptly, and the
// session stays usable; a cancelled call is cancelled, not timed out.
func TestTimeoutLeavesSessionUsableOverEachTransport(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transportCase) {
		s := tr.start(t, ClientOptions{})
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		start := time.Now()
		out, err := s.CallTool(ctx, "slow", json.RawMessage(`{"ms":5000}`))
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrTimeout wrapping DeadlineExceeded", err)
		}
		if waited := time.Since(start); waited > 2*time.Second {
			t.Fatalf("timeout took %v", waited)
		}
		if out == nil || out.Duration < 100*time.Millisecond {
			t.Fatalf("outcome = %+v", out)
		}
		if got := toolText(t, callTool(t, s, "echo", `{"message":"still here"}`).Result); got != "still here" {
			t.Fatalf("echo after timeout = %q", got)
		}
		if exited, _ := s.Exited(); exited {
			t.Fatal("server exited after a timeout")
		}

		ctx, cancel = context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		_, err = s.CallTool(ctx, "slow", json.RawMessage(`{"ms":5000}`))
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
			t.Fatalf("err = %v, want context.Canceled and not ErrTimeout", err)
		}
	})
}

// Close fails the calls in flight with ErrClosed, at once, and every
// later call too.
func TestCloseInterruptsCallsOverEachTransport(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transportCase) {
		s := tr.start(t, ClientOptions{})
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
			if !errors.Is(err, ErrClosed) {
				t.Fatalf("err = %v, want ErrClosed", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("call still waiting after Close")
		}
		if _, err := s.CallTool(context.Background(), "echo", nil); !errors.Is(err, ErrClosed) {
			t.Fatalf("call after Close: %v", err)
		}
	})
}

// A server that dies fails the call that killed it promptly, with the
// request frame in the outcome, and every later call with the reason.
func TestServerDeathOverEachTransport(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transportCase) {
		s := tr.start(t, ClientOptions{})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		out, err := s.CallTool(ctx, "crash", nil)
		if !errors.Is(err, tr.dies) || !strings.Contains(err.Error(), tr.diesText) {
			t.Fatalf("err = %v, want %v saying %q", err, tr.dies, tr.diesText)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("the death took %v to be reported", d)
		}
		if out == nil || len(out.Frames) != 1 || out.Frames[0].Direction != Sent {
			t.Errorf("outcome on error should carry the request frame: %+v", out)
		}
		if _, err := s.CallTool(ctx, "echo", json.RawMessage(`{"message":"x"}`)); !errors.Is(err, tr.dies) {
			t.Fatalf("call to a dead server: %v", err)
		}
	})
}
