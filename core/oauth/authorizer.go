package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Authorizer authorizes the requests of one MCP session. It is safe for
// concurrent use: requests that meet a 401 together share one
// authorization.
type Authorizer struct {
	cfg Config

	mu       sync.Mutex
	resource string            // the resource indicator sent (RFC 8707)
	prm      *ResourceMetadata // nil when the server publishes none
	as       *ServerMetadata
	client   *Client
	method   string // token endpoint authentication in use
	ts       oauth2.TokenSource
	current  string   // the access token last handed out
	granted  []string // the scopes of the current token
	count    int      // authorizations made
	cached   bool     // the cache was read
	stale    bool     // the client and token came from the cache
	hint     string   // why the last authorization stopped
}

// New returns an Authorizer for cfg.
func New(cfg Config) (*Authorizer, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Authorizer{cfg: cfg}, nil
}

// Authorization returns the Authorization header for the next request:
// the current token, refreshed if it expired, or a cached one; "" until
// the server first asks for credentials.
func (a *Authorizer) Authorization(ctx context.Context) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ts == nil && !a.cached {
		a.cached = true
		a.loadCache()
	}
	if a.ts == nil {
		return "", nil
	}
	tok, err := a.ts.Token()
	if err != nil {
		// The refresh failed: send nothing, so the server's 401 starts a
		// new authorization.
		a.ts, a.current = nil, ""
		return "", nil
	}
	a.remember(tok)
	return "Bearer " + tok.AccessToken, nil
}

// Challenge handles a 401 or 403 answer to a request sent with the
// Authorization header sent. It reports whether the request should be
// sent again, with the header Authorization now returns. client carries
// the metadata, registration and token requests.
func (a *Authorizer) Challenge(ctx context.Context, client *http.Client, status int, header http.Header, sent string) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.current != "" && "Bearer "+a.current != sent {
		return true, nil // another request already got a new token
	}
	ch := ParseChallenge(header)
	var extra []string
	switch status {
	case http.StatusUnauthorized:
	case http.StatusForbidden:
		if ch.Error != "insufficient_scope" {
			return false, nil
		}
		extra = ch.Scope
	default:
		return false, nil
	}
	if a.count >= a.cfg.MaxAuthorizations {
		a.hint = fmt.Sprintf("mcptest stopped after %d authorizations (%v)", a.count, ErrRetryLimit)
		return false, nil
	}
	if err := a.authorize(ctx, client, ch, extra); err != nil {
		a.hint = ""
		return false, a.scrubbed(err)
	}
	return true, nil
}

// Hint explains a refusal in terms of the configuration, for the error
// of a request that stayed refused.
func (a *Authorizer) Hint() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.hint != "" {
		return a.hint
	}
	who := "a registered client"
	if a.client != nil {
		who = "the " + a.client.Source + " client"
	}
	if a.as != nil {
		return fmt.Sprintf("the server refused the OAuth token issued by %s to %s", a.as.Issuer, who)
	}
	return "the server refused the request and no OAuth authorization took place"
}

// Login authorizes now, without waiting for the server to ask: the
// interactive `mcptest auth login`. It probes the server with an
// unauthenticated initialize to read its challenge.
func (a *Authorizer) Login(ctx context.Context) error {
	client := a.httpClient()
	header := http.Header{}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.URL,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcptest","version":"login"}}}`))
	if err == nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if resp, err := client.Do(req); err == nil {
			header = resp.Header
			resp.Body.Close()
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.authorize(ctx, client, ParseChallenge(header), nil); err != nil {
		return a.scrubbed(err)
	}
	return nil
}

// scrubbedError is an error whose text was scrubbed of every secret the
// client knows; errors.Is still sees the original's sentinels.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// scrubbed masks the secrets in err's text.
func (a *Authorizer) scrubbed(err error) error {
	return &scrubbedError{msg: a.cfg.Redact.String(err.Error()), err: err}
}

// httpClient returns the client for requests no session lends one for.
func (a *Authorizer) httpClient() *http.Client {
	if a.cfg.HTTPClient != nil {
		return a.cfg.HTTPClient
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// authorize discovers what is still unknown and runs the grant. extra
// are the scopes a 403 asked for, added to those already granted.
func (a *Authorizer) authorize(ctx context.Context, client *http.Client, ch Challenge, extra []string) error {
	a.count++
	if a.stale {
		// The cached token was refused: start over, registration included,
		// since the server may be another one at the same address.
		a.client, a.method, a.stale = nil, "", false
	}
	if a.as == nil {
		if err := a.discover(ctx, client, ch); err != nil {
			return err
		}
	}
	scopes := a.selectScopes(ch, extra)
	var (
		tok *oauth2.Token
		ts  oauth2.TokenSource
		err error
	)
	tctx := context.WithValue(ctx, oauth2.HTTPClient, client)
	switch a.cfg.Flow {
	case FlowAuthorizationCode:
		tok, ts, err = a.authorizationCode(tctx, client, scopes)
	case FlowClientCredentials:
		tok, ts, err = a.clientCredentials(tctx, client, scopes)
	case FlowIdentityAssertion:
		tok, ts, err = a.identityAssertion(tctx, client, scopes)
	}
	if err != nil {
		return err
	}
	if err := checkAudience(tok.AccessToken, a.cfg.URL, a.resource); err != nil {
		a.cfg.Redact.Add(tok.AccessToken)
		return err
	}
	a.ts = oauth2.ReuseTokenSource(tok, ts)
	a.granted = scopes
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		a.granted = strings.Fields(s)
	}
	a.remember(tok)
	return nil
}

// remember registers tok's secrets and saves it when it is new.
func (a *Authorizer) remember(tok *oauth2.Token) {
	a.cfg.Redact.Add(tok.AccessToken)
	a.cfg.Redact.Add(tok.RefreshToken)
	if tok.AccessToken == a.current {
		return
	}
	a.current = tok.AccessToken
	a.saveCache(tok)
}

// discover finds the resource's and the authorization server's metadata,
// or takes the configured endpoints.
func (a *Authorizer) discover(ctx context.Context, client *http.Client, ch Challenge) error {
	a.resource = CanonicalResource(a.cfg.URL)
	if a.cfg.TokenURL != "" {
		a.as = &ServerMetadata{Issuer: origin(a.cfg.TokenURL), TokenEndpoint: a.cfg.TokenURL, AuthorizationEndpoint: a.cfg.AuthorizationURL}
		return nil
	}
	prm, err := DiscoverResource(ctx, client, a.cfg.URL, ch)
	if err != nil {
		return err
	}
	issuer, fallback := origin(a.cfg.URL), true
	if prm != nil {
		if prm.Resource != "" {
			if err := CheckResource(a.cfg.URL, prm.Resource); err != nil {
				return err
			}
			a.resource = prm.Resource
		}
		issuer, fallback = prm.AuthorizationServers[0], false
	}
	as, err := DiscoverServer(ctx, client, issuer, fallback)
	if err != nil {
		return err
	}
	if a.cfg.Flow == FlowAuthorizationCode && len(as.CodeChallengeMethodsSupported) > 0 && !contains(as.CodeChallengeMethodsSupported, "S256") {
		return fmt.Errorf("%w: the authorization server %s does not support PKCE with S256 (code_challenge_methods_supported: %v)", ErrDiscovery, as.Issuer, as.CodeChallengeMethodsSupported)
	}
	if as.Issuer == "" {
		as.Issuer = issuer
	}
	if a.cfg.AuthorizationURL != "" {
		as.AuthorizationEndpoint = a.cfg.AuthorizationURL
	}
	a.prm, a.as = prm, as
	return nil
}

// selectScopes chooses the scopes to request (the MCP specification's
// scope selection strategy): the configured ones, else the challenge's,
// else the resource's scopes_supported, else none; plus the scopes a 403
// asked for on top of those granted, and offline_access for a refresh
// token when the authorization server lists it.
func (a *Authorizer) selectScopes(ch Challenge, extra []string) []string {
	var scopes []string
	switch {
	case len(a.cfg.Scopes) > 0:
		scopes = slices.Clone(a.cfg.Scopes)
	case len(ch.Scope) > 0:
		scopes = slices.Clone(ch.Scope)
	case a.prm != nil && len(a.prm.ScopesSupported) > 0:
		scopes = slices.Clone(a.prm.ScopesSupported)
	}
	if len(extra) > 0 {
		scopes = slices.Clone(a.granted)
		for _, s := range append(ch.Scope, extra...) {
			if !slices.Contains(scopes, s) {
				scopes = append(scopes, s)
			}
		}
	}
	if a.cfg.Flow == FlowAuthorizationCode && len(scopes) > 0 && a.as != nil &&
		contains(a.as.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	return scopes
}

// origin returns the scheme and host of raw.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Scheme + "://" + u.Host
}
