// Package probe is mcptest's own raw JSON-RPC transport, used by the
// compliance checks for everything an MCP SDK cannot express or hides:
// malformed bytes, missing envelope fields, null ids, stray lines on
// stdout, HTTP status codes and headers, and the fields of SSE events.
//
// It has three parts, all standard library only:
//
//   - [Proc] spawns a stdio server in its own process group, writes
//     arbitrary bytes to its stdin, returns every stdout line verbatim
//     (JSON or not), keeps a bounded tail of stdout and stderr, and kills
//     the whole group on Close.
//   - [HTTPClient] sends any method, headers and body to a URL and returns
//     the status, headers and body unchanged; SSE bodies are parsed into
//     [Event] values with their id, event, retry and comment fields.
//   - Envelope helpers build legacy (initialize-era) and modern
//     (2026-07-28, per-request _meta plus Mcp-Method/Mcp-Name headers)
//     messages, and [Parse] decodes what comes back without judging it, so
//     a check can look at exactly what the server wrote.
//
// Every wait takes a timeout or a context; nothing here blocks forever on
// a server that hangs.
package probe
