package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// echoTransport is a Transport outside the stdio and HTTP wires, as
// core/cassette writes one: it answers initialize (mcp-go's, own false)
// on another goroutine and the session's own requests at once, and
// counts Drain calls.
type echoTransport struct {
	deliver func([]byte)
	silent  bool // answer nothing: a start that cannot finish
	own     atomic.Int32
	drains  atomic.Int32
}

func (e *echoTransport) Send(ctx context.Context, msg []byte, own bool) error {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(msg, &req); err != nil || len(req.ID) == 0 || e.silent {
		return nil
	}
	if own {
		e.own.Add(1)
		e.deliver(response(req.ID, json.RawMessage(`{"content":[{"type":"text","text":"seen"}],"echo":`+string(req.Params)+`}`), nil))
		return nil
	}
	go e.deliver(response(req.ID, json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"echo","version":"9"}}`), nil))
	return nil
}

func (e *echoTransport) Drain() { e.drains.Add(1) }

func (e *echoTransport) Detail() string { return "; from the echo transport" }

// TestStartTransport: a session over an outside Transport performs the
// handshake through it, tells it which messages are its own requests,
// reports the kind it was given, and drains it once on Close.
func TestStartTransport(t *testing.T) {
	tr := &echoTransport{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := StartTransport(ctx, TransportConfig{Name: "echo", Kind: "echo-kind", ProtocolVersion: DefaultProtocolVersion, InitTimeout: 5 * time.Second},
		func(deliver func([]byte)) Transport { tr.deliver = deliver; return tr })
	if err != nil {
		t.Fatal(err)
	}
	if name, version := s.ServerInfo(); s.Transport() != "echo-kind" || name != "echo" || version != "9" {
		t.Errorf("transport %q, server %q %q", s.Transport(), name, version)
	}
	if tr.own.Load() != 0 {
		t.Errorf("the handshake was sent as the session's own request")
	}
	out, err := s.CallTool(ctx, "x", json.RawMessage(`{"a":1}`))
	if err != nil || !strings.Contains(string(out.Result), `"echo":{"name":"x","arguments":{"a":1}}`) {
		t.Fatalf("call: %v %s", err, out.Result)
	}
	if tr.own.Load() != 1 || len(out.Frames) != 2 {
		t.Errorf("own requests %d, frames %d", tr.own.Load(), len(out.Frames))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if n := tr.drains.Load(); n != 1 {
		t.Errorf("Drain called %d times, want once", n)
	}
}

// TestStartTransportTimeoutNamesTheTransport: a transport that never
// answers the handshake fails the start with ErrTimeout and its Detail.
func TestStartTransportTimeoutNamesTheTransport(t *testing.T) {
	tr := &echoTransport{silent: true}
	_, err := StartTransport(context.Background(), TransportConfig{Name: "mute", Kind: "echo-kind", ProtocolVersion: DefaultProtocolVersion, InitTimeout: 200 * time.Millisecond},
		func(deliver func([]byte)) Transport { tr.deliver = deliver; return tr })
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "from the echo transport") {
		t.Fatalf("err = %v", err)
	}
	if n := tr.drains.Load(); n != 1 {
		t.Errorf("Drain called %d times after a failed start, want once", n)
	}
}
