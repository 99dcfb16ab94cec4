package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Grant and token type URIs of the identity assertion grant.
const (
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	grantJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// authorizationTimeout bounds the wait for a person to approve in the
// browser.
const authorizationTimeout = 5 * time.Minute

// ensureClient settles the client's identity, in the specification's
// order of preference: pre-registered, a Client ID Metadata Document URL
// the server accepts, dynamic registration.
func (a *Authorizer) ensureClient(ctx context.Context, client *http.Client, redirectURI string, scopes []string) error {
	if a.client != nil {
		return nil
	}
	switch {
	case a.cfg.ClientID != "":
		a.client = &Client{ID: a.cfg.ClientID, Secret: a.cfg.ClientSecret, Source: "configured"}
	case a.cfg.ClientMetadataURL != "" && a.as.ClientIDMetadataDocumentSupported:
		a.client = &Client{ID: a.cfg.ClientMetadataURL, AuthMethod: AuthNone, Source: "metadata document"}
	default:
		c, err := Register(ctx, client, a.as, redirectURI, "mcptest", a.cfg.Version, scopes)
		if err != nil {
			return err
		}
		a.cfg.Redact.Add(c.Secret)
		a.client = c
	}
	a.method = chooseAuthMethod(a.cfg.TokenEndpointAuth, a.client, a.cfg.PrivateKey != nil, a.as)
	return nil
}

// oauth2Config is the x/oauth2 configuration of the authorization server.
func (a *Authorizer) oauth2Config(redirectURI string, scopes []string) *oauth2.Config {
	secret := ""
	if a.method == AuthBasic || a.method == AuthPost {
		secret = a.client.Secret
	}
	return &oauth2.Config{
		ClientID:     a.client.ID,
		ClientSecret: secret,
		Endpoint: oauth2.Endpoint{
			AuthURL:   a.as.AuthorizationEndpoint,
			TokenURL:  a.as.TokenEndpoint,
			AuthStyle: authStyle(a.method),
		},
		RedirectURL: redirectURI,
		Scopes:      scopes,
	}
}

// audience is the aud of the client's assertions: the issuer.
func (a *Authorizer) audience() string {
	if a.as.Issuer != "" {
		return a.as.Issuer
	}
	return a.as.TokenEndpoint
}

// authorizationCode runs the authorization code grant with PKCE S256 and
// the resource parameter, through a browser or without a person.
func (a *Authorizer) authorizationCode(ctx context.Context, client *http.Client, scopes []string) (*oauth2.Token, oauth2.TokenSource, error) {
	if a.as.AuthorizationEndpoint == "" {
		return nil, nil, fmt.Errorf("%w: the authorization server %s names no authorization endpoint", ErrDiscovery, a.as.Issuer)
	}
	lb, err := listenLoopback(a.cfg.RedirectPort)
	if err != nil {
		return nil, nil, err
	}
	defer lb.close()
	if err := a.ensureClient(ctx, client, lb.redirectURI(), scopes); err != nil {
		return nil, nil, err
	}
	conf := a.oauth2Config(lb.redirectURI(), scopes)
	verifier := oauth2.GenerateVerifier()
	lb.state = randomString()
	a.cfg.Redact.Add(verifier)
	a.cfg.Redact.Add(lb.state)
	authURL := conf.AuthCodeURL(lb.state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", a.resource))
	var code string
	if a.cfg.Browser != nil {
		if err := a.cfg.Browser(ctx, authURL); err != nil {
			return nil, nil, fmt.Errorf("%w: %w; open this URL yourself: %s", ErrAuthorization, err, authURL)
		}
		wctx, cancel := context.WithTimeoutCause(ctx, authorizationTimeout, errors.New("nobody approved within 5 minutes"))
		code, err = lb.wait(wctx)
		cancel()
	} else {
		code, err = follow(ctx, client, authURL, lb)
	}
	if err != nil {
		return nil, nil, err
	}
	a.cfg.Redact.Add(code)
	opts := []oauth2.AuthCodeOption{oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", a.resource)}
	if a.method == AuthPrivateKey {
		params, err := assertionParams(a.cfg.PrivateKey, a.client.ID, a.audience())
		if err != nil {
			return nil, nil, err
		}
		for k := range params {
			opts = append(opts, oauth2.SetAuthURLParam(k, params.Get(k)))
		}
	}
	tok, err := conf.Exchange(ctx, code, opts...)
	if err != nil {
		return nil, nil, tokenError(a.as.TokenEndpoint, err)
	}
	// Refreshes outlive the request that authorized: they carry only the
	// client, whose timeout bounds each.
	bg := context.WithValue(context.Background(), oauth2.HTTPClient, client)
	return tok, conf.TokenSource(bg, tok), nil
}

// clientCredentials runs the client credentials grant with a client
// secret or a signed assertion; an expired token is fetched again.
func (a *Authorizer) clientCredentials(ctx context.Context, client *http.Client, scopes []string) (*oauth2.Token, oauth2.TokenSource, error) {
	if err := a.ensureClient(ctx, client, "", scopes); err != nil {
		return nil, nil, err
	}
	fetch := func(ctx context.Context) (*oauth2.Token, error) {
		conf := &clientcredentials.Config{
			ClientID:       a.client.ID,
			TokenURL:       a.as.TokenEndpoint,
			Scopes:         scopes,
			EndpointParams: url.Values{"resource": {a.resource}},
			AuthStyle:      authStyle(a.method),
		}
		if a.method == AuthBasic || a.method == AuthPost {
			conf.ClientSecret = a.client.Secret
		}
		if a.method == AuthPrivateKey {
			params, err := assertionParams(a.cfg.PrivateKey, a.client.ID, a.audience())
			if err != nil {
				return nil, err
			}
			for k, v := range params {
				conf.EndpointParams[k] = v
			}
		}
		tok, err := conf.Token(ctx)
		if err != nil {
			return nil, tokenError(a.as.TokenEndpoint, err)
		}
		return tok, nil
	}
	tok, err := fetch(ctx)
	if err != nil {
		return nil, nil, err
	}
	bg := context.WithValue(context.Background(), oauth2.HTTPClient, client)
	return tok, sourceFunc(func() (*oauth2.Token, error) { return fetch(bg) }), nil
}

// identityAssertion runs cross-app access: the identity provider
// exchanges its ID token for an identity assertion grant for this
// authorization server and resource (RFC 8693), which the client
// presents as a JWT bearer grant (RFC 7523 §2.1).
func (a *Authorizer) identityAssertion(ctx context.Context, client *http.Client, scopes []string) (*oauth2.Token, oauth2.TokenSource, error) {
	if err := a.ensureClient(ctx, client, "", scopes); err != nil {
		return nil, nil, err
	}
	fetch := func(ctx context.Context) (*oauth2.Token, error) {
		exchange := &clientcredentials.Config{
			ClientID: a.cfg.IDPClientID,
			TokenURL: a.cfg.IDPTokenURL,
			EndpointParams: url.Values{
				"grant_type":           {grantTokenExchange},
				"subject_token":        {a.cfg.IDToken},
				"subject_token_type":   {tokenTypeIDToken},
				"requested_token_type": {tokenTypeIDJAG},
				"audience":             {a.as.Issuer},
				"resource":             {a.resource},
			},
			Scopes:    scopes,
			AuthStyle: oauth2.AuthStyleInParams,
		}
		jag, err := exchange.Token(ctx)
		if err != nil {
			return nil, tokenError(a.cfg.IDPTokenURL, err)
		}
		a.cfg.Redact.Add(jag.AccessToken)
		grant := &clientcredentials.Config{
			ClientID:       a.client.ID,
			TokenURL:       a.as.TokenEndpoint,
			EndpointParams: url.Values{"grant_type": {grantJWTBearer}, "assertion": {jag.AccessToken}},
			Scopes:         scopes,
			AuthStyle:      authStyle(a.method),
		}
		if a.method == AuthBasic || a.method == AuthPost {
			grant.ClientSecret = a.client.Secret
		}
		tok, err := grant.Token(ctx)
		if err != nil {
			return nil, tokenError(a.as.TokenEndpoint, err)
		}
		return tok, nil
	}
	tok, err := fetch(ctx)
	if err != nil {
		return nil, nil, err
	}
	bg := context.WithValue(context.Background(), oauth2.HTTPClient, client)
	return tok, sourceFunc(func() (*oauth2.Token, error) { return fetch(bg) }), nil
}

// sourceFunc is an oauth2.TokenSource made of a function.
type sourceFunc func() (*oauth2.Token, error)

// Token implements oauth2.TokenSource.
func (f sourceFunc) Token() (*oauth2.Token, error) { return f() }

// tokenError describes a refused token request: the status and the OAuth
// error of the answer, never the request's parameters.
func tokenError(endpoint string, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		return fmt.Errorf("%w: POST %s: HTTP %d: %s", ErrToken, endpoint, re.Response.StatusCode, oauthErrorText(re.Body))
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%w: POST %s: %w", ErrToken, endpoint, err)
}

// randomString returns 128 random bits as hex, for state values.
func randomString() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
