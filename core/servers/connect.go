package servers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/cassette"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/redact"
)

// ErrMissingEnv is wrapped when a server's credential variable is unset.
var ErrMissingEnv = errors.New("environment variable is not set")

// connect starts a session with a server at a protocol revision ("" for
// the session default), over the transport its kind names.
func (s *Pool) connect(ctx context.Context, suite *config.Suite, srv *config.Server, version string) (*session.Session, error) {
	switch srv.Kind {
	case config.URLServer:
		cfg, err := s.HTTPConfig(suite, srv, version)
		if err != nil {
			return nil, err
		}
		return session.StartHTTP(ctx, cfg)
	case config.CassetteServer:
		// The path is relative to the working directory, as written.
		return cassette.Start(ctx, cassette.Config{
			Name:            srv.Name,
			Path:            srv.Cassette,
			ProtocolVersion: version,
			ClientVersion:   s.clientVersion,
			Scrub:           redact.New(suite.Secrets...).Bytes,
		})
	case config.StdioServer, "":
		limit, from := startLimit(suite)
		return session.StartStdio(ctx, session.StdioConfig{
			Name:            srv.Name,
			Command:         srv.Command,
			Env:             srv.Env,
			ProtocolVersion: version,
			ClientVersion:   s.clientVersion,
			Secrets:         suite.Secrets,
			Client:          clientOptions(suite, srv),
			InitTimeout:     limit,
			InitTimeoutFrom: from,
		})
	}
	return nil, fmt.Errorf("server %q: %s servers cannot be run by this build", srv.Name, srv.Kind)
}

// HTTPConfig turns a URL server's block into a session configuration,
// reading credentials now, at connect time, from the environment and the
// suite's dotenv files.
func (s *Pool) HTTPConfig(suite *config.Suite, srv *config.Server, version string) (session.HTTPConfig, error) {
	lookupEnv := func(field, name string) (string, error) { return credential(suite, srv, field, name) }
	cfg := session.HTTPConfig{
		Name:            srv.Name,
		URL:             srv.URL,
		Transport:       srv.HTTP.Transport, // "" lets the protocol revision choose
		ProtocolVersion: version,
		ClientVersion:   s.clientVersion,
		WaitForReady:    srv.WaitForReady,
		Client:          clientOptions(suite, srv),
	}
	cfg.InitTimeout, cfg.InitTimeoutFrom = startLimit(suite)
	if a := srv.Auth; a != nil {
		if a.BearerTokenEnv != "" {
			tok, err := lookupEnv("bearer_token_env", a.BearerTokenEnv)
			if err != nil {
				return cfg, err
			}
			cfg.Auth = session.Auth{BearerToken: tok, BearerTokenEnv: a.BearerTokenEnv}
		}
		if o := a.OAuth; o != nil && !o.Classic() {
			az, err := s.authorizer(suite, srv, o)
			if err != nil {
				return cfg, err
			}
			cfg.Auth.Authorizer = az
		} else if o != nil {
			id, err := lookupEnv("oauth.client_id_env", o.ClientIDEnv)
			if err != nil {
				return cfg, err
			}
			secret, err := lookupEnv("oauth client secret", o.ClientIDEnv+"_SECRET")
			if err != nil {
				return cfg, err
			}
			cfg.Auth.OAuth = &session.OAuthConfig{ClientID: id, ClientSecret: secret, ClientIDEnv: o.ClientIDEnv, TokenURL: o.TokenURL, Scopes: o.Scopes}
		}
	}
	for _, h := range srv.Headers {
		hdr := session.Header{Name: h.Name, Value: h.Value}
		if h.Env != "" {
			v, err := lookupEnv("headers."+h.Name, h.Env)
			if err != nil {
				return cfg, err
			}
			hdr.Value, hdr.Env = v, h.Env
		}
		cfg.Headers = append(cfg.Headers, hdr)
	}
	redirects := srv.HTTP.MaxRedirects
	cfg.HTTP = session.HTTPOptions{
		Timeout:        srv.HTTP.Timeout,
		ConnectTimeout: srv.HTTP.ConnectTimeout,
		MaxRedirects:   &redirects,
		NoUserAgent:    !srv.HTTP.UserAgentOverride,
		TLS: session.TLSOptions{
			InsecureSkipVerify: srv.HTTP.TLS.InsecureSkipVerify,
			CABundlePath:       srv.HTTP.TLS.CABundlePath,
			MinVersion:         srv.HTTP.TLS.MinVersion,
		},
	}
	return cfg, nil
}

// credential reads a credential variable; the error names the variable
// and the field that asked for it, never a value.
func credential(suite *config.Suite, srv *config.Server, field, name string) (string, error) {
	v, ok := suite.LookupEnv(name)
	if !ok || strings.TrimSpace(v) == "" {
		return "", fmt.Errorf("server %q: %s names $%s: %w", srv.Name, field, name, ErrMissingEnv)
	}
	return v, nil
}

// startLimit is the bound of a server's start (spawn or connect, then
// initialize): performance.default_timeout_ms when the suite sets it, with
// where it was set, else zero for the session's documented default.
func startLimit(suite *config.Suite) (time.Duration, string) {
	if suite.DefaultTimeoutMS <= 0 {
		return 0, ""
	}
	file := suite.File
	if pos, ok := suite.Blocks["performance"]; ok && pos.File != "" {
		file = pos.File
	}
	return time.Duration(suite.DefaultTimeoutMS) * time.Millisecond, "performance.default_timeout_ms in " + file
}
