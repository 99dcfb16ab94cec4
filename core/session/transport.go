package session

import (
	"context"
	"fmt"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// Transport carries a Session's messages for a server that this package
// does not reach itself: core/cassette replays a recording through one.
// The Session keeps everything above the bytes (request ids and their
// answers, the mcp-go client's handshake, mocks, captures, frames); the
// Transport only takes the messages the Session writes (Send) and hands
// back, through the deliver function StartTransport gives it, every
// message its server sends.
type Transport interface {
	// Send transmits msg, one complete JSON-RPC message ending in "\n".
	// own is true for a request of the Session's own (CallTool, Request,
	// server/discover), whose answer a caller is waiting for; false for
	// other traffic: the mcp-go client's initialize and ping, notifications,
	// answers to the server's requests. Answers may be delivered before
	// Send returns or later, from any goroutine. An error fails the call
	// msg belongs to; wrap ErrTransport, ErrBadResponse or ErrTimeout so
	// that callers can tell what happened.
	Send(ctx context.Context, msg []byte, own bool) error
	// Drain is called once, when the Session closes, after it has stopped
	// reading deliveries: it waits for deliveries in progress to return
	// and releases what the transport holds.
	Drain()
	// Detail explains a failed start in the transport's terms, as
	// "; ..." text, or "".
	Detail() string
}

// TransportConfig describes a Session over a Transport.
type TransportConfig struct {
	// Name identifies the server in errors and reports.
	Name string
	// Kind is what Session.Transport reports, such as TransportCassette.
	Kind string
	// ProtocolVersion is the revision to pin: initialize for a legacy
	// one, server/discover for a modern one. It is used as given (a
	// replay pins what the recording says).
	ProtocolVersion string
	// ClientVersion is sent as clientInfo.version, as given.
	ClientVersion string
	// InitTimeout bounds the handshake; zero means DefaultInitTimeout.
	InitTimeout time.Duration
}

// StartTransport opens a Session over the Transport that dial returns.
// dial is called once, before anything is sent, with the function that
// hands the Session a message from the server (one complete JSON-RPC
// message; the Session does not keep msg's bytes past the call). The
// Session then performs the handshake at the pinned revision through the
// transport, as it would over stdio or HTTP. ctx bounds only the start.
func StartTransport(ctx context.Context, cfg TransportConfig, dial func(deliver func(msg []byte)) Transport) (*Session, error) {
	if cfg.InitTimeout <= 0 {
		cfg.InitTimeout = DefaultInitTimeout
	}
	s := newSession(options{
		name:            cfg.Name,
		protocolVersion: cfg.ProtocolVersion,
		clientVersion:   cfg.ClientVersion,
		initTimeout:     cfg.InitTimeout,
	}, cfg.Kind)
	s.t = external{dial(func(msg []byte) { s.route(msg, source{}) })}
	if err := s.startClient(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("start server %q: mcp client: %w", cfg.Name, err)
	}
	if err := s.handshake(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// external adapts a Transport to the session's wire: it has nothing to
// stop before the session lets go of the mcp-go client, and drains after.
type external struct{ t Transport }

// Send implements wire.Wire.
func (e external) Send(ctx context.Context, msg []byte, c wire.Call) error {
	return e.t.Send(ctx, msg, c != nil)
}

// Stop implements wire.Wire.
func (e external) Stop() error { return nil }

// Drain implements wire.Wire.
func (e external) Drain() { e.t.Drain() }

// Detail implements wire.Wire.
func (e external) Detail() string { return e.t.Detail() }
