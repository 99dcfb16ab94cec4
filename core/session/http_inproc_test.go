//go:build unix

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// newInProcServer serves an mcp-go server with tools the demo lacks:
// progress sends notifications on the POST's SSE stream, roots asks the
// client for its roots over the GET stream. gets counts GET requests.
func newInProcServer(t *testing.T) (u string, gets *atomic.Int32) {
	t.Helper()
	srv := server.NewMCPServer("inproc", "0.1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("progress"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for i := 1; i <= 3; i++ {
			_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress",
				map[string]any{"progressToken": "tok", "progress": i, "total": 3})
			// mcp-go's forwarder drops a notification it still holds when
			// the response is written; give it time to write each one.
			time.Sleep(20 * time.Millisecond)
		}
		return mcp.NewToolResultText("done"), nil
	})
	srv.AddTool(mcp.NewTool("roots"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err := server.ServerFromContext(ctx).RequestRoots(ctx, mcp.ListRootsRequest{})
		if err != nil {
			return mcp.NewToolResultError("roots failed: " + err.Error()), nil
		}
		return mcp.NewToolResultText("roots answered"), nil
	})
	gets = new(atomic.Int32)
	h := server.NewStreamableHTTPServer(srv)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp", gets
}

func TestHTTPResponseStreamFrames(t *testing.T) {
	u, _ := newInProcServer(t)
	s := startURLSession(t, HTTPConfig{URL: u})
	out := callTool(t, s, "progress", `{}`)
	if toolText(t, out.Result) != "done" || mediaType(out.Headers.Get("Content-Type")) != "text/event-stream" {
		t.Fatalf("outcome %s, headers %v", out.Result, out.Headers)
	}
	// mcp-go's server sometimes drops an early notification (its own
	// conformance baseline calls tools-call-with-progress intermittent),
	// so at least one must be there, in order, between request and answer.
	n := len(out.Frames)
	if n < 3 || n > 5 {
		t.Fatalf("frames = %+v", out.Frames)
	}
	prev := 0
	for i, f := range out.Frames[1 : n-1] {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Progress int `json:"progress"`
			} `json:"params"`
		}
		if f.Direction != Received || f.Event != "message" || json.Unmarshal([]byte(f.Raw), &m) != nil ||
			m.Method != "notifications/progress" || m.Params.Progress <= prev {
			t.Errorf("frame %d = %+v", i+1, f)
		}
		prev = m.Params.Progress
	}
	if last := out.Frames[n-1]; !strings.Contains(last.Raw, `"result"`) || last.Event != "message" {
		t.Errorf("last frame = %+v", last)
	}
}

// TestHTTPServerRequestOnGETStream: the server's roots request arrives on
// the GET stream and the client's answer is POSTed back; without the
// stream the tool would hang until its own timeout.
func TestHTTPServerRequestOnGETStream(t *testing.T) {
	u, gets := newInProcServer(t)
	s := startURLSession(t, HTTPConfig{URL: u})
	waitFor(t, 5*time.Second, "the GET stream", func() bool { return gets.Load() > 0 })
	time.Sleep(50 * time.Millisecond) // let the server register the stream
	start := time.Now()
	out := callTool(t, s, "roots", `{}`)
	// The client declares no roots capability, so mcp-go answers with an
	// error; what matters is that the request got an answer at all.
	if text := toolText(t, out.Result); !strings.Contains(text, "roots") || time.Since(start) > 4*time.Second {
		t.Fatalf("roots = %q after %v", text, time.Since(start))
	}
	t.Logf("roots: %s", out.Result)
	if strings.Contains(toolText(t, out.Result), "deadline") {
		t.Fatalf("the roots request was never answered: %s", out.Result)
	}
}

// fakeServer is a hand-written Streamable HTTP server for the stream
// mechanics the SDK servers do not show: an early close with an event id
// (resumed by GET), an early close without one, pretty-printed JSON.
type fakeServer struct {
	*httptest.Server
	mode string

	mu       sync.Mutex
	callID   json.RawMessage
	resumeID string
}

func newFakeServer(t *testing.T, mode string) *fakeServer {
	t.Helper()
	f := &fakeServer{mode: mode}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	sse := func(events ...string) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, ev := range events {
			_, _ = io.WriteString(w, ev)
			w.(http.Flusher).Flush()
		}
	}
	switch r.Method {
	case http.MethodDelete:
		return
	case http.MethodGet:
		f.mu.Lock()
		id := f.callID
		f.resumeID = r.Header.Get("Last-Event-Id")
		f.mu.Unlock()
		if f.resumeID == "" {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		sse(fmt.Sprintf("id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n", id))
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &m)
	switch m.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "fake-session")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"fake","version":"0"}}}`, m.ID)
	case "tools/call":
		f.mu.Lock()
		f.callID = m.ID
		f.mu.Unlock()
		switch f.mode {
		case "resume": // a priming event, then the server closes the stream
			sse("id: e1\nretry: 20\ndata:\n\n")
		case "cut":
			sse(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}` + "\n\n")
		case "pretty":
			sse(fmt.Sprintf("data: {\"jsonrpc\": \"2.0\",\ndata:  \"id\": %s,\ndata:  \"result\": {\"content\": []}}\n\n", m.ID))
		}
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

func TestHTTPStreamResumption(t *testing.T) {
	f := newFakeServer(t, "resume")
	s := startURLSession(t, HTTPConfig{URL: f.URL + "/mcp"})
	out := callTool(t, s, "anything", `{}`)
	if toolText(t, out.Result) != "resumed" {
		t.Fatalf("result %s", out.Result)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.resumeID != "e1" {
		t.Fatalf("resumed with Last-Event-ID %q", f.resumeID)
	}
	if last := out.Frames[len(out.Frames)-1]; last.EventID != "e2" {
		t.Errorf("response frame = %+v", last)
	}
}

func TestHTTPStreamEndsWithoutAnswer(t *testing.T) {
	f := newFakeServer(t, "cut")
	s := startURLSession(t, HTTPConfig{URL: f.URL + "/mcp"})
	out, err := s.CallTool(context.Background(), "anything", json.RawMessage(`{}`))
	if !isErr(err, ErrTransport) || !strings.Contains(err.Error(), "ended the SSE stream before answering") {
		t.Fatalf("err = %v", err)
	}
	// The notification that did arrive is on the record.
	if len(out.Frames) != 2 || !strings.Contains(out.Frames[1].Raw, "notifications/message") {
		t.Fatalf("frames = %+v", out.Frames)
	}
}

func TestHTTPMultiLineEvent(t *testing.T) {
	f := newFakeServer(t, "pretty")
	s := startURLSession(t, HTTPConfig{URL: f.URL + "/mcp"})
	out := callTool(t, s, "anything", `{}`)
	if string(out.Result) != `{"content": []}` {
		t.Fatalf("result %q", out.Result)
	}
}
