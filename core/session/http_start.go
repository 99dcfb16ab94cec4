package session

import (
	"context"
	"fmt"

	"github.com/mcptest/mcptest/core/session/internal/httpwire"
)

// StartHTTP connects to the URL server described by cfg: it waits for
// cfg.WaitForReady when set, opens the transport (Streamable HTTP, or the
// legacy SSE stream and its endpoint), performs the initialize handshake
// at the pinned protocol revision and returns the ready session. Over
// Streamable HTTP it then opens the standalone GET stream, so that
// server-to-client requests and notifications arrive (a server answering
// 405 has none). At a modern revision (2026-07-28) it sends server/discover
// instead of initialize and opens no GET stream: every request carries
// the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers and no session
// id. ctx bounds only the start, not the session's life.
//
// Errors wrap ErrTransport (an *HTTPError: unreachable, TLS failure, HTTP
// error status, and ErrAuth for 401/403 and token failures), ErrTimeout
// or ErrBadResponse, and say which server, URL and variable were involved,
// never a secret.
func StartHTTP(ctx context.Context, cfg HTTPConfig) (*Session, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := newSession(cfg.options(), cfg.Transport)
	w, err := httpwire.New(s.ctx, cfg.wire(), sink{s})
	if err != nil {
		s.cancel()
		return nil, err
	}
	s.redact = w.Redactor()
	if err := w.WaitForReady(ctx); err != nil {
		s.cancel()
		return nil, err
	}
	s.t, s.sessionID = w, w.SessionID
	if err := w.Connect(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.startClient(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("connect to server %q: mcp client: %w", cfg.Name, err)
	}
	w.Serve() // reads the legacy SSE stream once mcp-go runs
	if err := s.handshake(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	w.Listen(ctx)
	return s, nil
}
