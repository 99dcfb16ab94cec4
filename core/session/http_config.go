package session

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/httpwire"
)

// Defaults for the zero values of HTTPConfig and HTTPOptions.
const (
	// DefaultHTTPTimeout bounds one HTTP exchange, body included.
	DefaultHTTPTimeout = httpwire.DefaultTimeout
	// DefaultConnectTimeout bounds the TCP connect and the TLS handshake.
	DefaultConnectTimeout = httpwire.DefaultConnectTimeout
	// DefaultMaxRedirects is how many redirects one request may follow.
	DefaultMaxRedirects = httpwire.DefaultMaxRedirects
	// MaxRedirectsLimit is the most HTTPOptions.MaxRedirects may be.
	MaxRedirectsLimit = httpwire.MaxRedirectsLimit
	// DefaultReadyTimeout bounds the wait for HTTPConfig.WaitForReady.
	DefaultReadyTimeout = 60 * time.Second
	// DefaultMaxBufferedBytes bounds the bytes of response bodies an HTTP
	// session holds at once, across all its requests in flight: each body
	// is also bounded by MaxMessageBytes, but several endless ones read
	// side by side would otherwise add up to several times that.
	DefaultMaxBufferedBytes = httpwire.DefaultMaxBufferedBytes
)

// The settings of a URL server below the session are defined with the
// HTTP wire (httpwire) and are the same types here.
type (
	// Auth holds credentials for a URL server: a BearerToken (read from
	// BearerTokenEnv) or an OAuth client credentials grant, not both. The
	// caller reads the environment; the session only uses the names in
	// messages, never the values.
	Auth = httpwire.Auth
	// OAuthConfig is an OAuth 2.0 client credentials grant (RFC 6749
	// §4.4): ClientID, ClientSecret (read from ClientIDEnv and
	// ClientIDEnv_SECRET), TokenURL and Scopes.
	OAuthConfig = httpwire.OAuthConfig
	// Authorizer supplies the credentials of a URL session and answers
	// the server's 401 and 403 challenges; core/oauth implements it. Set
	// it in Auth.Authorizer.
	Authorizer = httpwire.Authorizer
	// Header is one custom header sent with every request; a value read
	// from an environment variable (Env) is a secret, redacted from every
	// record and message.
	Header = httpwire.Header
	// HTTPOptions tune the HTTP client of a URL session: Timeout (one
	// exchange), ConnectTimeout, MaxRedirects (nil: the default, 0: none),
	// NoUserAgent and TLS.
	HTTPOptions = httpwire.Options
	// TLSOptions are the TLS settings of a URL session:
	// InsecureSkipVerify, a CABundlePath trusted besides the system's
	// roots, and MinVersion ("1.2" or "1.3").
	TLSOptions = httpwire.TLSOptions
)

// HTTPConfig describes an MCP server reached at a URL, over Streamable
// HTTP or the legacy HTTP+SSE transport.
type HTTPConfig struct {
	// Name identifies the server in errors and reports. It defaults to
	// the URL's host.
	Name string
	// URL is the MCP endpoint: the Streamable HTTP endpoint, or for legacy
	// SSE the URL of the event stream (often ending in /sse).
	URL string
	// Transport is TransportStreamable or TransportSSE. Empty means
	// TransportSSE when ProtocolVersion is 2024-11-05, and
	// TransportStreamable otherwise. A server that does not speak the
	// chosen transport fails the start; there is no fallback.
	Transport string
	// ProtocolVersion is the revision to pin, one of ProtocolVersions():
	// a legacy one opens with initialize, a modern one (2026-07-28) with
	// server/discover and has no session, no GET stream and no DELETE.
	// Empty means DefaultProtocolVersion. The session never probes.
	ProtocolVersion string
	// ClientVersion is sent as clientInfo.version in initialize and in
	// the User-Agent; empty means "dev".
	ClientVersion string
	// Auth says how to authenticate; the zero value sends no credentials.
	Auth Auth
	// Headers are sent with every request, in order.
	Headers []Header
	// HTTP tunes timeouts, redirects, the User-Agent and TLS.
	HTTP HTTPOptions
	// WaitForReady, when set, is a URL (or a path, resolved against URL)
	// polled with GET until it answers 2xx before the session connects.
	WaitForReady string
	// ReadyTimeout bounds that wait; zero means DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// InitTimeout bounds the initialize handshake (and, over SSE, the wait
	// for the endpoint event); zero means DefaultInitTimeout.
	InitTimeout time.Duration
	// InitTimeoutFrom says where InitTimeout came from, as in StdioConfig.
	InitTimeoutFrom string
	// CallTimeout bounds a call whose context has no deadline; zero means
	// DefaultCallTimeout, a negative value means no bound.
	CallTimeout time.Duration
	// MaxMessageBytes bounds one message (a JSON body or an SSE event);
	// zero means DefaultMaxMessageBytes.
	MaxMessageBytes int
	// MaxBufferedBytes bounds the bytes of response bodies and SSE events
	// the session holds at once across its concurrent requests; a read
	// that would pass it fails the request it belongs to with
	// ErrBadResponse. Zero means DefaultMaxBufferedBytes; it is raised to
	// twice MaxMessageBytes when lower, so that one SSE event at the cap
	// (its data and the line it arrives on) fits.
	MaxBufferedBytes int
	// Client holds the client features offered to the server: what
	// initialize declares and the mocks that answer its requests.
	Client ClientOptions
}

// withDefaults validates cfg and fills in its zero values.
func (cfg HTTPConfig) withDefaults() (HTTPConfig, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cfg, fmt.Errorf("url server %q: URL %q is not an http(s) URL", cfg.Name, cfg.URL)
	}
	if cfg.Name == "" {
		cfg.Name = u.Host
	}
	fail := func(format string, args ...any) (HTTPConfig, error) {
		return cfg, fmt.Errorf("url server %q: %s", cfg.Name, fmt.Sprintf(format, args...))
	}
	if cfg.ProtocolVersion == "" {
		cfg.ProtocolVersion = DefaultProtocolVersion
	}
	if !slices.Contains(ProtocolVersions(), cfg.ProtocolVersion) {
		return fail("protocol version %q is not supported; use one of %s",
			cfg.ProtocolVersion, strings.Join(ProtocolVersions(), ", "))
	}
	switch cfg.Transport {
	case "":
		cfg.Transport = TransportStreamable
		if cfg.ProtocolVersion == "2024-11-05" {
			cfg.Transport = TransportSSE
		}
	case TransportStreamable, TransportSSE:
	default:
		return fail("transport %q is not supported; use %q or %q", cfg.Transport, TransportStreamable, TransportSSE)
	}
	if cfg.Transport == TransportSSE && IsModern(cfg.ProtocolVersion) {
		// The stateless era has no long-lived stream to carry answers.
		return fail("protocol revision %s is spoken over stdio or Streamable HTTP only, not the legacy HTTP+SSE transport", cfg.ProtocolVersion)
	}
	if cfg.ClientVersion == "" {
		cfg.ClientVersion = "dev"
	}
	if err := httpwire.Validate(cfg.Auth, cfg.Headers, &cfg.HTTP); err != nil {
		return fail("%v", err)
	}
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = DefaultReadyTimeout
	}
	if cfg.InitTimeout <= 0 {
		cfg.InitTimeout = DefaultInitTimeout
	}
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if cfg.MaxBufferedBytes <= 0 {
		cfg.MaxBufferedBytes = DefaultMaxBufferedBytes
	}
	cfg.MaxBufferedBytes = max(cfg.MaxBufferedBytes, 2*cfg.MaxMessageBytes+2)
	return cfg, nil
}

// wire returns what the HTTP wire needs of cfg, whose defaults are filled
// in.
func (cfg HTTPConfig) wire() httpwire.Config {
	o := cfg.options()
	return httpwire.Config{
		Name:             cfg.Name,
		URL:              cfg.URL,
		Transport:        cfg.Transport,
		ProtocolVersion:  cfg.ProtocolVersion,
		Modern:           o.modern(),
		ClientVersion:    cfg.ClientVersion,
		Auth:             cfg.Auth,
		Headers:          cfg.Headers,
		HTTP:             cfg.HTTP,
		WaitForReady:     cfg.WaitForReady,
		ReadyTimeout:     cfg.ReadyTimeout,
		InitTimeout:      cfg.InitTimeout,
		StartLimit:       o.startLimit(),
		MaxMessageBytes:  cfg.MaxMessageBytes,
		MaxBufferedBytes: cfg.MaxBufferedBytes,
	}
}

// options returns the settings every transport shares.
func (cfg HTTPConfig) options() options {
	return options{
		name:            cfg.Name,
		protocolVersion: cfg.ProtocolVersion,
		clientVersion:   cfg.ClientVersion,
		initTimeout:     cfg.InitTimeout,
		initFrom:        cfg.InitTimeoutFrom,
		callTimeout:     cfg.CallTimeout,
		maxMessageBytes: cfg.MaxMessageBytes,
		client:          cfg.Client,
	}
}
