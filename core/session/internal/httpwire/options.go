package httpwire

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for the zero values of Options.
const (
	// DefaultTimeout bounds one HTTP exchange, body included.
	DefaultTimeout = 30 * time.Second
	// DefaultConnectTimeout bounds the TCP connect and the TLS handshake.
	DefaultConnectTimeout = 5 * time.Second
	// DefaultMaxRedirects is how many redirects one request may follow.
	DefaultMaxRedirects = 5
	// MaxRedirectsLimit is the most Options.MaxRedirects may be.
	MaxRedirectsLimit = 50
)

// Validate checks the credentials, the custom headers and the HTTP
// options of a URL server, and fills in the options' zero values. Its
// messages name variables, never values.
func Validate(a Auth, headers []Header, o *Options) error {
	if err := a.validate(); err != nil {
		return err
	}
	for _, h := range headers {
		if err := h.validate(); err != nil {
			return err
		}
	}
	return o.withDefaults()
}

// Auth holds credentials for a URL server. At most one of BearerToken and
// OAuth may be set. The caller reads the environment; the session only
// uses the names in messages, never the values.
type Auth struct {
	// BearerToken is sent as "Authorization: Bearer <token>".
	BearerToken string
	// BearerTokenEnv names the variable BearerToken was read from.
	BearerTokenEnv string
	// OAuth, when set, fetches tokens with the OAuth 2.0 client
	// credentials grant.
	OAuth *OAuthConfig
	// Authorizer, when set, supplies the credentials and answers the
	// server's 401 and 403 challenges (core/oauth).
	Authorizer Authorizer
}

// OAuthConfig is an OAuth 2.0 client credentials grant (RFC 6749 §4.4).
type OAuthConfig struct {
	// ClientID and ClientSecret are the client's credentials.
	ClientID, ClientSecret string
	// ClientIDEnv names the variable ClientID was read from; the secret
	// came from ClientIDEnv + "_SECRET".
	ClientIDEnv string
	// TokenURL is the token endpoint.
	TokenURL string
	// Scopes are requested with the token; empty asks for the default.
	Scopes []string
}

// Header is one custom header sent with every request.
type Header struct {
	// Name is the header's name, an RFC 7230 token.
	Name string
	// Value is sent as is.
	Value string
	// Env names the environment variable Value was read from. Such values
	// are secrets: they are redacted from every record and message.
	Env string
}

// Options tune the HTTP client of a URL session.
type Options struct {
	// Timeout bounds one HTTP exchange, from sending the request to the
	// end of its response body (an SSE response included); zero means
	// DefaultTimeout. The standalone GET stream is bounded only until
	// its headers arrive.
	Timeout time.Duration
	// ConnectTimeout bounds the TCP connect and the TLS handshake; zero
	// means DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// MaxRedirects is how many redirects a request may follow: nil means
	// DefaultMaxRedirects, 0 disables redirects (a 3xx answer is then an
	// error).
	MaxRedirects *int
	// NoUserAgent stops the session from sending "User-Agent:
	// mcptest/<ClientVersion>"; a User-Agent in Headers always wins.
	NoUserAgent bool
	// TLS holds the TLS settings.
	TLS TLSOptions
}

// TLSOptions are the TLS settings of a URL session.
type TLSOptions struct {
	// InsecureSkipVerify accepts any server certificate. Dangerous; the
	// CLI prints a warning when it is set.
	InsecureSkipVerify bool
	// CABundlePath is a PEM file of CA certificates trusted in addition
	// to the system's.
	CABundlePath string
	// MinVersion is "1.2" or "1.3"; empty means "1.2".
	MinVersion string
}

// reservedHeaders are set by the transport itself; a custom header with
// one of these names would break the protocol or hide a credential.
var reservedHeaders = []string{
	"Authorization", "Proxy-Authorization", // use Auth
	"Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-Id",
	"Content-Type", "Content-Length", "Accept", "Host", "Transfer-Encoding", "Connection",
}

// validate checks that at most one method is configured and that it is
// complete. Messages name variables, never values.
func (a Auth) validate() error {
	if (a.OAuth != nil || a.Authorizer != nil) && (a.BearerToken != "" || a.BearerTokenEnv != "") || a.OAuth != nil && a.Authorizer != nil {
		return errors.New("auth: set a bearer token or OAuth, not both")
	}
	if a.BearerTokenEnv != "" && a.BearerToken == "" {
		return fmt.Errorf("auth: the bearer token variable %s is empty or unset", a.BearerTokenEnv)
	}
	if strings.ContainsAny(a.BearerToken, "\r\n\x00") {
		return fmt.Errorf("auth: the bearer token%s contains a line break or NUL", envSuffix(a.BearerTokenEnv))
	}
	if o := a.OAuth; o != nil {
		if o.ClientID == "" {
			return fmt.Errorf("auth: the OAuth client id%s is empty or unset", envSuffix(o.ClientIDEnv))
		}
		if o.ClientSecret == "" {
			secretEnv := ""
			if o.ClientIDEnv != "" {
				secretEnv = o.ClientIDEnv + "_SECRET"
			}
			return fmt.Errorf("auth: the OAuth client secret%s is empty or unset", envSuffix(secretEnv))
		}
		if u, err := url.Parse(o.TokenURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("auth: OAuth token URL %q is not an http(s) URL", o.TokenURL)
		}
	}
	return nil
}

// envSuffix renders " (from $NAME)" for messages, or "" without a name.
func envSuffix(name string) string {
	if name == "" {
		return ""
	}
	return " (from $" + name + ")"
}

// validate checks a custom header's name and value.
func (h Header) validate() error {
	if !validHeaderName(h.Name) {
		return fmt.Errorf("header name %q is not a valid HTTP token", h.Name)
	}
	for _, r := range reservedHeaders {
		if strings.EqualFold(h.Name, r) {
			if r == "Authorization" || r == "Proxy-Authorization" {
				return fmt.Errorf("header %s cannot be set in headers; use auth (bearer_token_env or oauth)", r)
			}
			return fmt.Errorf("header %s is set by the transport and cannot be overridden", r)
		}
	}
	if strings.ContainsAny(h.Value, "\r\n\x00") {
		if h.Env != "" {
			return fmt.Errorf("header %s (from $%s) contains a line break or NUL", h.Name, h.Env)
		}
		return fmt.Errorf("header %s contains a line break or NUL", h.Name)
	}
	return nil
}

// validHeaderName reports whether name is an RFC 7230 token.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// withDefaults validates o and fills in its zero values.
func (o *Options) withDefaults() error {
	if o.Timeout < 0 || o.ConnectTimeout < 0 {
		return errors.New("http: timeouts cannot be negative")
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.MaxRedirects == nil {
		n := DefaultMaxRedirects
		o.MaxRedirects = &n
	} else if *o.MaxRedirects < 0 || *o.MaxRedirects > MaxRedirectsLimit {
		return fmt.Errorf("http: max_redirects %d is outside 0..%d", *o.MaxRedirects, MaxRedirectsLimit)
	}
	switch o.TLS.MinVersion {
	case "":
		o.TLS.MinVersion = "1.2"
	case "1.2", "1.3":
	default:
		return fmt.Errorf("http: tls min_version %q is not supported; use \"1.2\" or \"1.3\"", o.TLS.MinVersion)
	}
	return nil
}

// secretHeaderNames returns the names of the headers read from the
// environment.
func (cfg Config) secretHeaderNames() []string {
	var names []string
	for _, h := range cfg.Headers {
		if h.Env != "" {
			names = append(names, http.CanonicalHeaderKey(h.Name))
		}
	}
	return names
}
