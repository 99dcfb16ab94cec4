// Package httpwire is the HTTP wire of a URL session: one HTTP client per
// server (TLS, timeouts, redirects that keep credentials on their origin,
// bearer and OAuth client-credentials auth, a readiness poll) carrying
// either Streamable HTTP (a POST per message, answered by a JSON body or
// an SSE stream that is resumed with Last-Event-ID; the standalone GET
// stream; the modern era's headers) or the legacy HTTP+SSE transport. Every
// body and event is bounded, alone and together (a session-wide budget),
// and HTTP failures are *HTTPError values that never quote a secret.
package httpwire
