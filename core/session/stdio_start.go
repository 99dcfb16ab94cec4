package session

import (
	"context"
	"fmt"

	"github.com/mcptest/mcptest/core/session/internal/stdiowire"
	"github.com/mcptest/mcptest/core/session/internal/wire"
	"github.com/mcptest/mcptest/internal/timeline"
)

// StartStdio starts the server described by cfg, opens the conversation at
// the pinned protocol revision (initialize, or server/discover for the
// modern era) and returns the ready session.
// ctx bounds only the start (together with cfg.InitTimeout), not the
// session's life. On failure the process is stopped and the error says why:
// it wraps ErrServerExited (with the stderr tail) if the server died,
// ErrTimeout if it did not answer in time.
func StartStdio(ctx context.Context, cfg StdioConfig) (*Session, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := newSession(cfg.options(), TransportStdio)
	if len(cfg.Secrets) > 0 {
		s.redact = wire.NewRedactor(cfg.Secrets, nil)
	}
	p, err := stdiowire.Start(stdiowire.Config{
		Name:            cfg.Name,
		Command:         cfg.Command,
		Env:             cfg.Env,
		Dir:             cfg.Dir,
		StderrLimit:     cfg.StderrLimit,
		MaxMessageBytes: cfg.MaxMessageBytes,
	}, sink{s})
	if err != nil {
		s.cancel()
		return nil, err
	}
	s.t, s.proc = p, p
	timeline.MarkOf("server-spawned", cfg.Name)
	if err := s.startClient(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("start server %q: mcp client: %w", cfg.Name, err)
	}
	p.Serve()
	if err := s.handshake(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	timeline.MarkOf("server-ready", cfg.Name)
	return s, nil
}
