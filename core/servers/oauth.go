package servers

import (
	"fmt"
	"path/filepath"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/oauth"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/internal/safefile"
)

// maxKeyBytes bounds a private key file.
const maxKeyBytes = 64 << 10

// authorizer builds the OAuth client of a URL server whose auth.oauth
// block asks for discovery or another grant than the classic client
// credentials: credentials are read now, at connect time, and the token
// cache in the user's configuration directory is used when it exists.
func (s *Pool) authorizer(suite *config.Suite, srv *config.Server, o *config.OAuth) (*oauth.Authorizer, error) {
	cfg, err := OAuthConfig(suite, srv, o)
	if err != nil {
		return nil, err
	}
	cfg.Version = s.clientVersion
	if s.redact != nil {
		// Tokens and codes obtained during the run join the run's secrets,
		// so that a server echoing one cannot put it in a report.
		cfg.Redact = s.redact
	}
	return oauth.New(cfg)
}

// SetRedactor makes r, the run's redactor, learn every secret the pool's
// OAuth clients obtain at run time (tokens, codes, registered secrets).
func (s *Pool) SetRedactor(r *redact.Redactor) { s.redact = r }

// OAuthConfig reads the credentials of a server's auth.oauth block into
// an oauth.Config (without a Browser: the run authorizes without a
// person). `mcptest auth login` uses it too.
func OAuthConfig(suite *config.Suite, srv *config.Server, o *config.OAuth) (oauth.Config, error) {
	cfg := oauth.Config{
		Server:            srv.Name,
		URL:               srv.URL,
		Flow:              o.Flow,
		ClientMetadataURL: o.ClientMetadataURL,
		TokenEndpointAuth: o.TokenEndpointAuth,
		Scopes:            o.Scopes,
		AuthorizationURL:  o.AuthorizationURL,
		RedirectPort:      o.RedirectPort,
		IDPTokenURL:       o.IDPTokenURL,
		Redact:            redact.New(suite.Secrets...),
	}
	if cfg.Flow == "" {
		cfg.Flow = oauth.FlowClientCredentials
	}
	if !o.Discovers() {
		cfg.TokenURL = o.TokenURL
	}
	if o.ClientIDEnv != "" {
		id, err := credential(suite, srv, "oauth.client_id_env", o.ClientIDEnv)
		if err != nil {
			return cfg, err
		}
		cfg.ClientID, cfg.ClientIDEnv = id, o.ClientIDEnv
		// The secret is optional: a public client, or one that signs.
		cfg.ClientSecret, _ = suite.LookupEnv(o.ClientIDEnv + "_SECRET")
	}
	switch {
	case o.PrivateKeyEnv != "":
		pem, err := credential(suite, srv, "oauth.private_key_env", o.PrivateKeyEnv)
		if err != nil {
			return cfg, err
		}
		if cfg.PrivateKey, err = oauth.ParsePrivateKey([]byte(pem)); err != nil {
			return cfg, fmt.Errorf("server %q: oauth.private_key_env $%s: %w", srv.Name, o.PrivateKeyEnv, err)
		}
	case o.PrivateKeyFile != "":
		path := o.PrivateKeyFile
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(suite.File), path)
		}
		pem, err := safefile.ReadFile(path, maxKeyBytes)
		if err != nil {
			return cfg, fmt.Errorf("server %q: oauth.private_key_file: %w", srv.Name, err)
		}
		cfg.Redact.Add(string(pem))
		if cfg.PrivateKey, err = oauth.ParsePrivateKey(pem); err != nil {
			return cfg, fmt.Errorf("server %q: oauth.private_key_file %s: %w", srv.Name, path, err)
		}
	}
	if o.IDTokenEnv != "" {
		tok, err := credential(suite, srv, "oauth.id_token_env", o.IDTokenEnv)
		if err != nil {
			return cfg, err
		}
		cfg.IDToken = tok
	}
	if o.IDPClientIDEnv != "" {
		id, err := credential(suite, srv, "oauth.idp_client_id_env", o.IDPClientIDEnv)
		if err != nil {
			return cfg, err
		}
		cfg.IDPClientID = id
	}
	if c, err := oauth.DefaultCache(); err == nil {
		cfg.Cache = c
	}
	return cfg, nil
}
