// Package compliance holds mcptest's built-in protocol compliance checks:
// generic probes, each tied to a requirement of the MCP specification, that
// work against any server without a suite.
//
// Every check has a stable id (J01 … H06, following the research notes in
// research/protocol.md §2), the revision and section of the requirement,
// a severity (MUST is an error, SHOULD a warning), the protocol eras and
// transports it applies to, and the server capability it needs. A check
// whose capability the server never declared is not applicable: it is
// reported as such and never failed.
//
// Checks talk to the server through core/probe, mcptest's raw transport,
// so they can send malformed bytes and read status codes an SDK would
// hide. A check that could crash the server runs on a fresh process (stdio)
// or a fresh session (HTTP), so a crash is charged to that check alone.
// Every result carries its evidence: the frames sent and received.
package compliance
