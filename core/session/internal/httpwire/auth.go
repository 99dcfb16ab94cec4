package httpwire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// credentials produce the Authorization header of each request.
type credentials interface {
	// authorization returns the header value, or "" to send none.
	authorization(ctx context.Context) (string, error)
	// hint explains a 401 or 403 in terms of the configuration, naming
	// variables, never values.
	hint() string
}

// newCredentials returns the credentials cfg.Auth describes. tokenClient
// is the HTTP client OAuth token requests go through.
func newCredentials(cfg Config, tokenClient *http.Client, r *wire.Redactor) credentials {
	a := cfg.Auth
	switch {
	case a.Authorizer != nil:
		return authorizerCredentials{az: a.Authorizer, redact: r}
	case a.OAuth != nil:
		cc := &clientcredentials.Config{
			ClientID:     a.OAuth.ClientID,
			ClientSecret: a.OAuth.ClientSecret,
			TokenURL:     a.OAuth.TokenURL,
			Scopes:       a.OAuth.Scopes,
		}
		// The token source keeps this context for its whole life; it only
		// carries the client, whose timeout bounds each token request.
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, tokenClient)
		return &oauthCredentials{server: cfg.Name, conf: a.OAuth, ts: cc.TokenSource(ctx), redact: r}
	case a.BearerToken != "":
		return bearer{token: a.BearerToken, env: a.BearerTokenEnv}
	default:
		return noCredentials{}
	}
}

// noCredentials sends no Authorization header.
type noCredentials struct{}

func (noCredentials) authorization(context.Context) (string, error) { return "", nil }

func (noCredentials) hint() string {
	return "the server wants credentials and none are configured (auth.bearer_token_env or auth.oauth, or --oauth to discover its authorization server)"
}

// bearer sends a static bearer token.
type bearer struct{ token, env string }

func (b bearer) authorization(context.Context) (string, error) { return "Bearer " + b.token, nil }

func (b bearer) hint() string {
	if b.env == "" {
		return "the server rejected the configured bearer token"
	}
	return fmt.Sprintf("the server rejected the bearer token from $%s", b.env)
}

// oauthCredentials fetch and cache tokens with the client credentials
// grant; the token source refreshes them when they expire.
type oauthCredentials struct {
	server string
	conf   *OAuthConfig
	ts     oauth2.TokenSource
	redact *wire.Redactor
}

func (o *oauthCredentials) authorization(context.Context) (string, error) {
	tok, err := o.ts.Token()
	if err != nil {
		return "", o.tokenError(err)
	}
	// A token is a secret like the others: keep it out of every record.
	o.redact.Add(tok.AccessToken)
	if tok.RefreshToken != "" {
		o.redact.Add(tok.RefreshToken)
	}
	return tok.Type() + " " + tok.AccessToken, nil
}

func (o *oauthCredentials) hint() string {
	return fmt.Sprintf("the server rejected the OAuth token issued by %s for the client %s", o.conf.TokenURL, o.clientNames())
}

// clientNames names where the client credentials came from.
func (o *oauthCredentials) clientNames() string {
	if o.conf.ClientIDEnv == "" {
		return "credentials configured"
	}
	return fmt.Sprintf("credentials in $%s and $%s_SECRET", o.conf.ClientIDEnv, o.conf.ClientIDEnv)
}

// tokenError describes a failed token request as an HTTPError wrapped in
// ErrAuth. oauth2's own text quotes the response body, which is scrubbed.
func (o *oauthCredentials) tokenError(err error) error {
	e := &HTTPError{Server: o.server, Method: http.MethodPost, URL: o.conf.TokenURL,
		Hint: "the token endpoint did not issue a token for the client " + o.clientNames()}
	var re *oauth2.RetrieveError
	var ue *url.Error
	switch {
	case errors.As(err, &re) && re.Response != nil:
		e.Status, e.Header = re.Response.StatusCode, re.Response.Header
		e.Body = excerpt(re.Body, o.redact)
	case errors.As(err, &ue):
		e.Err = errors.New(o.redact.Scrub(ue.Err.Error()))
	default:
		e.Err = errors.New(o.redact.Scrub(strings.TrimPrefix(err.Error(), "oauth2: ")))
	}
	return fmt.Errorf("%w: %w", ErrAuth, e)
}
