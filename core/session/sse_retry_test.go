//go:build unix

package session

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// retryMs is the reconnection delay the retry server asks for. It is above
// defaultRetry, so a reconnection that waited at least this long honoured
// the server's value rather than the client's own default.
const retryMs = 1200

// retryServer behaves like the sse-retry scenario of the official
// conformance suite: any GET may be a reconnection, so it answers every
// GET with a priming event and, when a call is waiting, the call's
// response. A tools/call gets a stream with only a priming event, which
// the server then closes. With closeListen, the first GET stream is also
// closed after its priming event, and the next one carries a ping request
// from the server.
type retryServer struct {
	*httptest.Server
	closeListen bool

	mu      sync.Mutex
	log     []string // "GET <Last-Event-ID>", "POST <method or id>"
	gets    []time.Time
	closed  time.Time // when the tools/call stream was closed
	pending json.RawMessage
	events  int
	pong    chan struct{}
}

func newRetryServer(t *testing.T, closeListen bool) *retryServer {
	t.Helper()
	f := &retryServer{closeListen: closeListen, pong: make(chan struct{})}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// record appends to the log and returns the next event id.
func (f *retryServer) record(entry string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = append(f.log, entry)
	f.events++
	return fmt.Sprintf("ev-%d", f.events)
}

func (f *retryServer) serve(w http.ResponseWriter, r *http.Request) {
	flush := func(s string) {
		_, _ = io.WriteString(w, s)
		w.(http.Flusher).Flush()
	}
	stream := func() {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Mcp-Session-Id", "retry-session")
		w.WriteHeader(http.StatusOK)
	}
	switch r.Method {
	case http.MethodDelete:
		return
	case http.MethodGet:
		id := f.record("GET " + r.Header.Get("Last-Event-Id"))
		f.mu.Lock()
		f.gets = append(f.gets, time.Now())
		nth := len(f.gets)
		pending := f.pending
		f.pending = nil
		f.mu.Unlock()
		stream()
		flush(fmt.Sprintf("id: %s\nretry: %d\ndata: \n\n", id, retryMs))
		if pending != nil {
			flush(fmt.Sprintf("id: %s-r\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"reconnected\"}]}}\n\n", id, pending))
		}
		if f.closeListen && nth == 1 {
			return
		}
		if f.closeListen && nth == 2 {
			flush(`data: {"jsonrpc":"2.0","id":"srv-1","method":"ping"}` + "\n\n")
		}
		<-r.Context().Done()
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &m)
	if m.Method == "" {
		f.record("POST " + string(m.ID))
		if string(m.ID) == `"srv-1"` {
			close(f.pong)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	id := f.record("POST " + m.Method)
	switch m.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "retry-session")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"retry","version":"0"}}}`, m.ID)
	case "tools/call":
		f.mu.Lock()
		f.pending = m.ID
		f.mu.Unlock()
		stream()
		flush(fmt.Sprintf("id: %s\nretry: %d\ndata: \n\n", id, retryMs))
		f.mu.Lock()
		f.closed = time.Now()
		f.mu.Unlock()
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// TestSSERetryReconnectsByGET: the response stream of a call ends after a
// priming event; the client waits the server's retry delay, reconnects
// with GET and Last-Event-ID, and gets the response there. The standalone
// GET stream was open before the call was sent, so the server could not
// mistake it for the reconnection.
func TestSSERetryReconnectsByGET(t *testing.T) {
	f := newRetryServer(t, false)
	s := startURLSession(t, HTTPConfig{URL: f.URL})
	out := callTool(t, s, "test_reconnection", `{}`)
	if got := toolText(t, out.Result); got != "reconnected" {
		t.Fatalf("result = %q", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := []string{"POST initialize", "POST notifications/initialized", "GET ", "POST tools/call", "GET ev-4"}
	if strings.Join(f.log, "|") != strings.Join(want, "|") {
		t.Fatalf("requests = %q, want %q", f.log, want)
	}
	if waited := f.gets[1].Sub(f.closed); waited < retryMs*time.Millisecond {
		t.Errorf("reconnected %v after the stream closed; the server asked for %dms", waited, retryMs)
	}
}

// TestSSERetryListenStream: the server ends the standalone GET stream; the
// client reconnects after the retry delay with the stream's last event id
// and answers a request the server sends on the new stream.
func TestSSERetryListenStream(t *testing.T) {
	f := newRetryServer(t, true)
	startURLSession(t, HTTPConfig{URL: f.URL})
	select {
	case <-f.pong:
	case <-time.After(10 * time.Second):
		f.mu.Lock()
		defer f.mu.Unlock()
		t.Fatalf("the ping on the reconnected stream was not answered; requests: %q", f.log)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := []string{"POST initialize", "POST notifications/initialized", "GET ", "GET ev-3", `POST "srv-1"`}
	if strings.Join(f.log, "|") != strings.Join(want, "|") {
		t.Fatalf("requests = %q, want %q", f.log, want)
	}
	if waited := f.gets[1].Sub(f.gets[0]); waited < retryMs*time.Millisecond {
		t.Errorf("reconnected %v after the first GET; the server asked for %dms", waited, retryMs)
	}
}
