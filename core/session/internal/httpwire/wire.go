package httpwire

import (
	"context"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// The two HTTP transports.
const (
	// Streamable is Streamable HTTP (protocol 2025-03-26 and later).
	Streamable = "streamable"
	// SSE is the legacy HTTP+SSE transport (protocol 2024-11-05).
	SSE = "sse"
)

// Config is what the HTTP wire needs of a URL server's settings, which
// the session has validated and whose zero values it has filled in.
type Config struct {
	// Name identifies the server in errors.
	Name string
	// URL is the MCP endpoint, or the legacy SSE stream.
	URL string
	// Transport is Streamable or SSE.
	Transport string
	// ProtocolVersion is the pinned revision, and Modern says whether it
	// belongs to the stateless era (no session, no GET stream, every
	// request declares the revision and its method in headers).
	ProtocolVersion string
	Modern          bool
	// ClientVersion goes in the User-Agent.
	ClientVersion string
	// Auth, Headers and HTTP are as the user configured them.
	Auth    Auth
	Headers []Header
	HTTP    Options
	// WaitForReady and ReadyTimeout: the readiness poll (WaitForReady).
	WaitForReady string
	ReadyTimeout time.Duration
	// InitTimeout bounds the wait for the legacy endpoint event, and
	// StartLimit names it for the error (" (start limit ...)").
	InitTimeout time.Duration
	StartLimit  string
	// MaxMessageBytes bounds one message; MaxBufferedBytes what all the
	// session's readers hold at once.
	MaxMessageBytes  int
	MaxBufferedBytes int
}

// transport is one of the two HTTP transports over the shared conn.
type transport interface {
	send(ctx context.Context, msg []byte, c wire.Call) error
	stop() error
	drain()
	id() string
}

// Wire is the wire.Wire of a URL session: the HTTP client of one server
// and the transport spoken over it.
type Wire struct {
	h *conn
	t transport
}

// New builds the client for cfg. ctx is the session's: the wire's requests
// and streams end when it does, or when Stop begins. Nothing is sent until
// WaitForReady or Connect.
func New(ctx context.Context, cfg Config, sink wire.Sink) (*Wire, error) {
	h, err := newConn(ctx, cfg, sink)
	if err != nil {
		return nil, err
	}
	w := &Wire{h: h}
	if cfg.Transport == SSE {
		w.t = &legacySSE{h: h}
	} else {
		t := &streamable{h: h}
		if cfg.Modern {
			// Every request of the stateless era declares its revision.
			t.version = cfg.ProtocolVersion
		}
		w.t = t
	}
	return w, nil
}

// Redactor returns the secrets of the server's configuration (and the
// OAuth tokens fetched later), for the session's frames.
func (w *Wire) Redactor() *wire.Redactor { return w.h.redact }

// WaitForReady polls Config.WaitForReady, when set, until it answers 2xx
// (see conn.waitForReady). On failure it closes the connections it opened.
func (w *Wire) WaitForReady(ctx context.Context) error {
	if w.h.cfg.WaitForReady == "" {
		return nil
	}
	if err := w.h.waitForReady(ctx); err != nil {
		w.h.tr.CloseIdleConnections()
		return err
	}
	return nil
}

// Connect opens the legacy SSE stream and waits for its endpoint event;
// Streamable HTTP has nothing to open before the first POST.
func (w *Wire) Connect(ctx context.Context) error {
	if t, ok := w.t.(*legacySSE); ok {
		return t.connect(ctx)
	}
	return nil
}

// Serve starts reading the legacy SSE stream, once the session's client
// is ready for messages.
func (w *Wire) Serve() {
	if t, ok := w.t.(*legacySSE); ok {
		t.startReading()
	}
}

// Listen opens Streamable HTTP's standalone GET stream, on which the server
// sends what belongs to no call, and waits, briefly (at most the HTTP
// timeout or listenReadyWait), until the server has answered it:
// notifications sent right after the handshake (list changes, a roots
// request) go on that stream. The modern era and legacy SSE have none.
func (w *Wire) Listen(ctx context.Context) {
	t, ok := w.t.(*streamable)
	if !ok || w.h.cfg.Modern {
		return
	}
	ready := t.startListening()
	wait := time.NewTimer(min(w.h.cfg.HTTP.Timeout, listenReadyWait))
	defer wait.Stop()
	select {
	case <-ready:
	case <-wait.C:
	case <-ctx.Done():
	}
}

// SessionID returns the session id the server assigned: Mcp-Session-Id
// over Streamable HTTP, the endpoint's sessionId over legacy SSE, or "".
func (w *Wire) SessionID() string { return w.t.id() }

// Send implements wire.Wire.
func (w *Wire) Send(ctx context.Context, msg []byte, c wire.Call) error { return w.t.send(ctx, msg, c) }

// Stop implements wire.Wire: it aborts every stream and request in flight
// (and ends a Streamable HTTP session with DELETE).
func (w *Wire) Stop() error { return w.t.stop() }

// Drain implements wire.Wire: it waits for the stream readers and closes
// idle connections.
func (w *Wire) Drain() { w.t.drain() }

// Detail implements wire.Wire; it adds nothing, as HTTP errors carry
// their own context.
func (w *Wire) Detail() string { return "" }
