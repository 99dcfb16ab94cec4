package session

import (
	"github.com/mcptest/mcptest/core/session/internal/httpwire"
	"github.com/mcptest/mcptest/core/session/internal/stdiowire"
	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// The errors below are defined with the wires that raise them
// (internal/wire, stdiowire, httpwire) and are the same values here, so
// that errors.Is works whichever side made the error.

// ErrServerExited is matched (errors.Is) by errors for calls that could not
// complete because the server process died or closed its stdout. The error
// is a *ServerExitError carrying the exit status and the stderr tail.
var ErrServerExited = stdiowire.ErrServerExited

// ErrTimeout is wrapped by errors for a wait that ran out of time: a call
// whose context deadline passed, an initialize handshake that took longer
// than StdioConfig.InitTimeout, or a stdin write the server did not read.
var ErrTimeout = wire.ErrTimeout

// ErrClosed is wrapped by errors for calls made on, or interrupted by, a
// session that Close has shut down.
var ErrClosed = wire.ErrClosed

// ErrBadResponse is wrapped by errors for a response the server sent with
// the call's id that is neither a result nor an error, that cannot be
// decoded (broken JSON, or nesting deeper than encoding/json's limit of
// 10,000 levels), or that exceeded StdioConfig.MaxMessageBytes.
var ErrBadResponse = wire.ErrBadResponse

// ErrTransport is matched (errors.Is) by errors for HTTP exchanges that
// failed below the JSON-RPC layer: the server could not be reached, the
// connection or stream broke, or it answered with an HTTP error status
// whose body is not a JSON-RPC error. Such errors are *HTTPError values.
var ErrTransport = httpwire.ErrTransport

// ErrAuth is matched by errors about credentials: the server answered 401
// or 403, or the OAuth token endpoint refused to issue a token. They match
// ErrTransport too.
var ErrAuth = httpwire.ErrAuth

// HTTPError describes an HTTP exchange with a URL server that failed below
// the JSON-RPC layer: the Server, the request's Method and URL, the
// Status (0 when no response arrived), the response Header, the start of
// its Body (sanitised, cut to 512 bytes), a Hint at the likely cause and
// the underlying network error (Err). errors.Is(err, ErrTransport) is true
// for it, and errors.Is(err, ErrAuth) too when Status is 401 or 403. Its
// text never holds a configured secret.
type HTTPError = httpwire.HTTPError

// ServerExitError describes a server that went away: its Status ("exit
// status 3", "signal: killed", or "still running" when it only closed
// stdout), ExitCode, StderrTail and the StdoutNoise it wrote.
// errors.Is(err, ErrServerExited) is true for it.
type ServerExitError = stdiowire.ServerExitError

// RPCError is a JSON-RPC error response, as the server sent it (Code,
// Message, raw Data). It is an outcome of a call, not a transport failure.
type RPCError = wire.RPCError

// Sanitize makes server-supplied text safe to print in a terminal or a
// report: control characters (ANSI escapes included) other than tab become
// \xNN, and invalid UTF-8 becomes U+FFFD.
func Sanitize(s string) string { return wire.Sanitize(s) }

// parseRPCError decodes a JSON-RPC error object. A malformed one is kept
// whole in Data under a message that says so.
func parseRPCError(raw []byte) *RPCError { return wire.ParseRPCError(raw) }
