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
//
// # Size
//
// The package is about 5,800 lines without tests, over the ~3,000 the
// project aims for, and stays one package on purpose. Roughly half is the
// 47 checks themselves (checks_*.go, one file per area of the
// specification, each check a small function with its id, requirement
// and severity), and half the machinery they run on: scheduling and
// server reuse (runner.go, pool.go, schedule.go), the probe sessions of
// both eras and transports (session*.go), bounded tool calls, evidence,
// baselines and the report.
//
// Splitting the checks from the machinery would turn the check
// environment (env.go, helpers.go, toolcalls.go: how a check opens a
// session, sends raw frames and reads answers) into an exported API with
// no second user, and the registry in check.go keeps every check's stable
// id, order and documentation in one place (a test keeps docs/compliance.md
// in step with it). A new area of checks is a new checks_*.go file here.
package compliance
