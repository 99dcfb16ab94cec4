// Package session runs MCP client sessions against servers under test.
//
// A Session talks to one server over one transport: a child process over
// stdio (StartStdio), or a URL over Streamable HTTP or the legacy HTTP+SSE
// transport (StartHTTP). Whatever the transport, the Session API is the
// same, so the runner never needs to know which one it holds.
//
// It is built on mcp-go: the mcp-go client performs the initialize handshake
// at a pinned protocol revision (never an auto-probe) and serves
// notifications and server-to-client requests, while tool calls are written
// and correlated by the session itself so that results are the server's
// exact bytes and every frame can be recorded. At a modern revision
// (2026-07-28, modern.go) there is no handshake for mcp-go to perform: the
// session opens with server/discover and stamps every request itself, and
// the mcp-go client, never initialised, can emulate nothing.
//
// The transports only move bytes, behind one interface (internal/wire:
// Wire, and the Sink they hand every message the server sends to). The
// stdio process and its pipes are internal/stdiowire; the HTTP client,
// Streamable HTTP, legacy SSE and SSE parsing are internal/httpwire. The
// session's router passes responses to our calls to the waiting call and
// everything else to mcp-go through a pipe, as if mcp-go were reading
// stdout. A transport defined elsewhere plugs in through the exported
// Transport seam (StartTransport): core/cassette replays recordings that
// way.
//
// What stays here is the session's own concern: calls and their outcomes,
// the router, the two protocol eras, client mocks and the requests they
// answer, captures, frames and redaction of what is recorded, and the
// session's lifetime.
//
// A call has three distinct outcomes: a result (which may carry isError:
// true), a JSON-RPC error (Outcome.RPCError), or a transport failure (the
// error return: ErrServerExited, ErrTransport, ErrTimeout, ErrClosed,
// ErrBadResponse).//
// # Size
//
// The package is about 3,200 lines without tests (late 2026), just over
// the ~3,000 the project aims for, since the traffic ledger
// (traffic.go: what the client wrote, for restart_policy after_write)
// joined it. The wires already live in internal packages; the next
// candidates to move out are the ledger (its types are all core/servers
// reads) and the client mocks (mocks.go, mrtr.go), which only need the
// router's request hook.
package session
