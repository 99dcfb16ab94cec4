// Package oauth is mcptest's OAuth 2.1 client for MCP servers that follow
// the authorization part of the MCP specification (2025-03-26, 2025-06-18
// and 2025-11-25 revisions, plus the client-credentials and cross-app
// access extensions).
//
// An Authorizer is handed to a URL session. It sends no credentials until
// the server answers 401; it then discovers the protected-resource
// metadata (RFC 9728) and the authorization server's metadata (RFC 8414 or
// OpenID Connect discovery, with the 2025-03-26 fallbacks), settles the
// client's identity (pre-registered, a Client ID Metadata Document URL,
// or Dynamic Client Registration, RFC 7591), runs the configured grant
// (authorization code with PKCE S256 and the resource parameter of RFC
// 8707, client credentials, or the identity assertion grant) and retries
// the request. A 403 insufficient_scope asks for the extra scopes, a
// bounded number of times.
//
// The authorization code grant runs without a person by default: mcptest
// opens the authorization URL itself and follows the redirects to its own
// loopback redirect URI, which suits CI and authorization servers that
// approve at once. Login (mcptest auth login) opens a browser instead.
//
// Every credential, code, verifier and token the client handles is
// registered with the program's redactor before it can reach any output,
// and tokens are kept per server in a cache file only the user can read.
package oauth
