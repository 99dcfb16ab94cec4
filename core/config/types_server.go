package config

import (
	"time"

	"github.com/mcptest/mcptest/core/config/internal/vars"
)

// ServerKind says how mcptest reaches a server.
type ServerKind string

// The three shapes of a server entry; exactly one applies.
const (
	// StdioServer is a subprocess spoken to over stdin and stdout
	// (command:).
	StdioServer ServerKind = "stdio"
	// URLServer is reached over HTTP, Streamable HTTP or SSE (url:).
	URLServer ServerKind = "url"
	// CassetteServer replays a recording instead of reaching a live server
	// (cassette:).
	CassetteServer ServerKind = "cassette"
)

// Restart policies of a server (restart_policy).
const (
	// RestartPerRun starts one process (or HTTP session) per run, shared
	// by the server's tests.
	RestartPerRun = "per_run"
	// RestartPerTest starts a fresh process (or HTTP session) for every
	// test of the server.
	RestartPerTest = "per_test"
	// RestartAfterWrite keeps a process (or HTTP session) for the next
	// test only while no test could have changed its state: every request
	// a test sent was a read, or a call of a tool the server annotates
	// readOnlyHint: true, and the test passed. After anything else the
	// next test gets a fresh one. A test that may write has the process
	// alone; tests expected to only read share it.
	RestartAfterWrite = "after_write"
)

// FixtureVar is the name ${fixture} refers to: the absolute path of the
// server's fixture copy. No variable may take it.
const FixtureVar = vars.FixtureVar

// HTTP transports of URL servers (http.transport).
const (
	// TransportStreamable is Streamable HTTP.
	TransportStreamable = "streamable"
	// TransportSSE is the legacy HTTP+SSE transport of protocol 2024-11-05.
	TransportSSE = "sse"
)

// Defaults of the http block of URL servers.
const (
	DefaultHTTPTimeout    = 30 * time.Second
	DefaultConnectTimeout = 5 * time.Second
	DefaultMaxRedirects   = 5
	DefaultTLSMinVersion  = "1.2"
)

// Server is one entry of the servers block.
type Server struct {
	// Name is the key under servers.
	Name string
	// Kind says which of Command, URL or Cassette is set.
	Kind ServerKind

	// Command is the argv to spawn (stdio servers); it has at least one
	// element and the first one (the executable) is not empty.
	Command []string
	// Env holds extra environment variables for the child process (stdio
	// servers); it is never nil.
	Env map[string]string

	// URL is the MCP endpoint (URL servers): an absolute http or https URL.
	URL string
	// Auth says how to authenticate to a URL server; nil for none.
	Auth *Auth
	// Headers are sent on every request to a URL server, in declaration
	// order.
	Headers []*Header
	// HTTP tunes the HTTP transport; for URL servers it always holds the
	// effective values (defaults filled in).
	HTTP HTTPOptions
	// WaitForReady is a URL, or a path relative to URL, polled until it
	// answers 2xx before any MCP request; "" for none.
	WaitForReady string

	// Cassette is the path of the recording to replay (cassette servers),
	// as written: relative paths resolve against the working directory.
	Cassette string

	// Client holds the client features offered to the server (roots,
	// sampling and elicitation mocks); nil when the server sets none.
	Client *ClientMocks
	// RestartPolicy says how long a process (or HTTP session) of the
	// server lives: RestartPerTest, RestartAfterWrite, or "" for
	// RestartPerRun (the default, also when written out).
	RestartPolicy string
	// Fixture is the absolute path of a directory copied afresh each time
	// the server starts (stdio servers); ${fixture} in the command, the
	// env and the server's tests expands to the copy. "" for none.
	Fixture string

	// Pos is the position of the server's key.
	Pos Pos
}

// Auth is the auth block of a URL server: exactly one of BearerTokenEnv and
// OAuth is set.
type Auth struct {
	// BearerTokenEnv names the environment variable whose value is sent as
	// "Authorization: Bearer <value>". The value is in Suite.Secrets.
	BearerTokenEnv string
	// OAuth configures the OAuth 2.0 client-credentials flow.
	OAuth *OAuth
	// Pos is the position of the auth key.
	Pos Pos
}

// OAuth is an OAuth 2.0 client configuration (docs/authorization.md).
type OAuth struct {
	// Flow is the grant: "client_credentials" (the default when empty),
	// "authorization_code" or "identity_assertion".
	Flow string
	// Discover makes mcptest find the authorization server from the MCP
	// server's metadata when it answers 401, instead of the configured
	// URLs. It is implied by the authorization_code and identity_assertion
	// flows when no token_url is given.
	Discover bool
	// ClientIDEnv names the environment variable holding the client id; the
	// secret is read from the same name with "_SECRET" appended. Optional
	// for authorization_code, where the client may register dynamically.
	ClientIDEnv string
	// ClientMetadataURL is the client's Client ID Metadata Document URL.
	ClientMetadataURL string
	// TokenEndpointAuth forces the token endpoint authentication method:
	// client_secret_basic, client_secret_post, none or private_key_jwt.
	TokenEndpointAuth string
	// PrivateKeyEnv and PrivateKeyFile hold the PEM key of private_key_jwt;
	// at most one is set.
	PrivateKeyEnv, PrivateKeyFile string
	// RedirectPort is the port of the loopback redirect URI; 0 picks one.
	RedirectPort int
	// IDTokenEnv, IDPTokenURL and IDPClientIDEnv configure the
	// identity_assertion flow (cross-app access).
	IDTokenEnv, IDPTokenURL, IDPClientIDEnv string
	// AuthorizationURL is the authorization endpoint (RFC 6749 §3.1).
	AuthorizationURL string
	// TokenURL is the token endpoint (RFC 6749 §3.2).
	TokenURL string
	// Scopes are the scopes to request; nil for the server's default.
	Scopes []string
}

// Discovers reports whether the client finds its endpoints from the
// server's metadata rather than the configured URLs.
func (o *OAuth) Discovers() bool {
	return o.Discover || (o.Flow != "" && o.Flow != "client_credentials" && o.TokenURL == "")
}

// Classic reports whether o is the client-credentials configuration with
// fixed URLs that suites wrote before discovery existed.
func (o *OAuth) Classic() bool {
	return (o.Flow == "" || o.Flow == "client_credentials") && !o.Discover &&
		o.TokenEndpointAuth == "" && o.PrivateKeyEnv == "" && o.PrivateKeyFile == ""
}

// Header is one custom header of a URL server: a literal value or a value
// read from the environment at connect time.
type Header struct {
	// Name is the header name, an RFC 7230 token other than Authorization
	// and Proxy-Authorization.
	Name string
	// Value is the literal value (after interpolation); "" when Env is set.
	Value string
	// Env names the environment variable to read ({env: NAME}); "" for a
	// literal. Its value is in Suite.Secrets.
	Env string
	// Pos is the position of the header's key.
	Pos Pos
}

// HTTPOptions is the http block of a URL server.
type HTTPOptions struct {
	// Timeout is the per-request timeout (default 30s).
	Timeout time.Duration
	// ConnectTimeout is the TCP and TLS connect timeout (default 5s).
	ConnectTimeout time.Duration
	// MaxRedirects is the number of redirects followed, 0 to 50 (default 5).
	MaxRedirects int
	// UserAgentOverride makes mcptest send its own User-Agent (default
	// true).
	UserAgentOverride bool
	// TLS holds the TLS knobs.
	TLS TLSOptions
	// Transport is TransportStreamable, TransportSSE, or "" when unset:
	// Streamable HTTP, unless the run pins protocol 2024-11-05, which
	// selects the legacy SSE transport.
	Transport string
}

// TLSOptions is the http.tls block of a URL server.
type TLSOptions struct {
	// InsecureSkipVerify skips certificate verification.
	InsecureSkipVerify bool
	// CABundlePath is a PEM bundle of extra trusted CAs; "" for none.
	CABundlePath string
	// MinVersion is the lowest TLS version accepted: "1.2" (default) or
	// "1.3".
	MinVersion string
}

// defaultHTTP returns the http block of a URL server that sets nothing.
func defaultHTTP() HTTPOptions {
	return HTTPOptions{
		Timeout:           DefaultHTTPTimeout,
		ConnectTimeout:    DefaultConnectTimeout,
		MaxRedirects:      DefaultMaxRedirects,
		UserAgentOverride: true,
		TLS:               TLSOptions{MinVersion: DefaultTLSMinVersion},
	}
}
