package oauth

import (
	"crypto"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/mcptest/mcptest/internal/redact"
)

// Grants (auth.oauth.flow).
const (
	// FlowClientCredentials is the client credentials grant (RFC 6749
	// §4.4), the default.
	FlowClientCredentials = "client_credentials"
	// FlowAuthorizationCode is the authorization code grant with PKCE.
	FlowAuthorizationCode = "authorization_code"
	// FlowIdentityAssertion is cross-app access: an identity provider's
	// ID token exchanged for an identity assertion (RFC 8693), presented
	// to the authorization server as a JWT bearer grant (RFC 7523).
	FlowIdentityAssertion = "identity_assertion"
)

// Flows are the values of Config.Flow.
var Flows = []string{FlowClientCredentials, FlowAuthorizationCode, FlowIdentityAssertion}

// DefaultMaxAuthorizations bounds how many times one session authorizes
// (a first authorization and the step-ups after 403 insufficient_scope).
const DefaultMaxAuthorizations = 3

// Config configures an Authorizer for one MCP server.
type Config struct {
	// Server names the server in messages.
	Server string
	// URL is the server's MCP endpoint.
	URL string
	// Flow is one of Flows; "" means FlowAuthorizationCode.
	Flow string
	// ClientID and ClientSecret are a pre-registered client; ClientIDEnv
	// names the variable the id came from (the secret's is ClientIDEnv +
	// "_SECRET"), for messages.
	ClientID, ClientSecret, ClientIDEnv string
	// ClientMetadataURL is the client's Client ID Metadata Document URL,
	// used as its client id where the server supports it.
	ClientMetadataURL string
	// TokenEndpointAuth forces a method of AuthMethods; "" chooses from
	// the registration and the server's metadata.
	TokenEndpointAuth string
	// PrivateKey signs private_key_jwt client assertions.
	PrivateKey crypto.Signer
	// Scopes, when set, are requested instead of the ones the challenge
	// or the metadata suggest.
	Scopes []string
	// AuthorizationURL and TokenURL, when TokenURL is set, are used
	// instead of discovering the authorization server.
	AuthorizationURL, TokenURL string
	// RedirectPort is the port of the loopback redirect URI; 0 picks one.
	RedirectPort int
	// IDToken, IDPTokenURL and IDPClientID drive FlowIdentityAssertion:
	// the ID token to exchange, the identity provider's token endpoint and
	// the client id there ("" sends none).
	IDToken, IDPTokenURL, IDPClientID string
	// Browser opens the authorization URL for a person; nil follows the
	// redirects without one.
	Browser Browser
	// Cache keeps tokens between runs; nil keeps them in memory only.
	Cache *Cache
	// Redact receives every secret the client handles; nil makes one.
	Redact *redact.Redactor
	// Version is mcptest's version, sent when registering.
	Version string
	// MaxAuthorizations bounds the authorizations of a session; 0 means
	// DefaultMaxAuthorizations.
	MaxAuthorizations int
	// HTTPClient is used where no session lends its client (Login); nil
	// means a client with a 30 s timeout.
	HTTPClient *http.Client
}

// validate checks cfg and fills in its defaults.
func (c *Config) validate() error {
	if c.Flow == "" {
		c.Flow = FlowAuthorizationCode
	}
	if !slices.Contains(Flows, c.Flow) {
		return fmt.Errorf("%w: flow %q; use one of %v", ErrConfig, c.Flow, Flows)
	}
	if u, err := url.Parse(c.URL); err != nil || u.Host == "" {
		return fmt.Errorf("%w: server URL %q", ErrConfig, c.URL)
	}
	if c.TokenEndpointAuth != "" && !slices.Contains(AuthMethods, c.TokenEndpointAuth) {
		return fmt.Errorf("%w: token_endpoint_auth %q; use one of %v", ErrConfig, c.TokenEndpointAuth, AuthMethods)
	}
	if c.TokenEndpointAuth == AuthPrivateKey && c.PrivateKey == nil {
		return fmt.Errorf("%w: token_endpoint_auth private_key_jwt needs a private key (private_key_env or private_key_file)", ErrConfig)
	}
	switch c.Flow {
	case FlowClientCredentials:
		if c.ClientID == "" {
			return fmt.Errorf("%w: the client credentials grant needs a client id (client_id_env)", ErrConfig)
		}
		if c.ClientSecret == "" && c.PrivateKey == nil {
			return fmt.Errorf("%w: the client credentials grant needs a client secret ($%s_SECRET) or a private key", ErrConfig, c.ClientIDEnv)
		}
	case FlowIdentityAssertion:
		if c.ClientID == "" || c.IDToken == "" || c.IDPTokenURL == "" {
			return fmt.Errorf("%w: the identity assertion grant needs a client id, an ID token (id_token_env) and the identity provider's token URL (idp_token_url)", ErrConfig)
		}
	}
	if c.RedirectPort < 0 || c.RedirectPort > 65535 {
		return fmt.Errorf("%w: redirect_port %d is outside 0..65535", ErrConfig, c.RedirectPort)
	}
	if c.MaxAuthorizations <= 0 {
		c.MaxAuthorizations = DefaultMaxAuthorizations
	}
	if c.Redact == nil {
		c.Redact = redact.New()
	}
	for _, s := range []string{c.ClientSecret, c.IDToken} {
		c.Redact.Add(s)
	}
	return nil
}
