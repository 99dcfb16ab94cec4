package toolkit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/shlex"

	"github.com/mcptest/mcptest/core/session"
)

// ErrNoServer is returned when a Target names no server.
var ErrNoServer = errors.New("no server given: pass --server with a command line or an http(s):// URL")

// Target is a server named on the command line: a command to start (over
// stdio) or a URL (Streamable HTTP), with the headers and credentials to
// send to a URL.
type Target struct {
	// Command is the server's command line, already split.
	Command []string
	// Env holds variables added to a stdio server's environment.
	Env map[string]string
	// URL is the MCP endpoint of a URL server.
	URL string
	// Headers are sent with every request to a URL server; a header read
	// from the environment (Env set) is a secret.
	Headers []session.Header
	// BearerToken is sent as "Authorization: Bearer <token>" to a URL
	// server; BearerEnv names the variable it was read from.
	BearerToken string
	BearerEnv   string
	// ProtocolVersion is the revision to pin; empty means the default.
	ProtocolVersion string
	// Secrets are the values to mask in every report and message.
	Secrets []string
	// ClientVersion is sent as clientInfo.version.
	ClientVersion string
	// InitTimeout bounds the start and handshake; zero means the session's
	// default.
	InitTimeout time.Duration
}

// ParseServer reads a --server value: an http(s):// URL, or a command
// line split with POSIX shell rules.
func ParseServer(spec string) (Target, error) {
	var t Target
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return t, ErrNoServer
	}
	if IsURL(spec) {
		t.URL = spec
		return t, nil
	}
	argv, err := shlex.Split(spec)
	if err != nil {
		return t, fmt.Errorf("--server: split the command: %w", err)
	}
	if len(argv) == 0 {
		return t, fmt.Errorf("--server: the command is empty: %w", ErrNoServer)
	}
	t.Command = argv
	return t, nil
}

// IsURL reports whether a --server value is a URL rather than a command.
func IsURL(spec string) bool {
	return strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://")
}

// Label names the target in reports: the URL, or the command line.
func (t Target) Label() string {
	if t.URL != "" {
		return t.URL
	}
	return strings.Join(t.Command, " ")
}

// Transport is the report's name for how the target is reached.
func (t Target) Transport() string {
	if t.URL != "" {
		return session.TransportStreamable
	}
	return session.TransportStdio
}

// Open starts (or connects to) the server and performs the handshake.
// callTimeout bounds each call whose context has no deadline.
func (t Target) Open(ctx context.Context, callTimeout time.Duration) (*session.Session, error) {
	if t.URL != "" {
		cfg := session.HTTPConfig{
			Name: "server", URL: t.URL, ProtocolVersion: t.ProtocolVersion, ClientVersion: t.ClientVersion,
			Headers: t.Headers, InitTimeout: t.InitTimeout, CallTimeout: callTimeout,
		}
		if t.BearerToken != "" {
			cfg.Auth = session.Auth{BearerToken: t.BearerToken, BearerTokenEnv: t.BearerEnv}
		}
		s, err := session.StartHTTP(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("connect to %s: %w", t.URL, err)
		}
		return s, nil
	}
	if len(t.Command) == 0 {
		return nil, ErrNoServer
	}
	s, err := session.StartStdio(ctx, session.StdioConfig{
		Name: "server", Command: t.Command, Env: t.Env, ProtocolVersion: t.ProtocolVersion,
		ClientVersion: t.ClientVersion, Secrets: t.Secrets, InitTimeout: t.InitTimeout, CallTimeout: callTimeout,
	})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t.Label(), err)
	}
	return s, nil
}
