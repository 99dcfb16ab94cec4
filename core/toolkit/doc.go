// Package toolkit holds what the server-quality commands (audit, fuzz,
// lint, coverage, generate) share: the server they are pointed at
// (Target, given on the command line rather than in a suite), the
// listings they read from it, how a tool call's answer is classified, and
// how their results become the standard run report, so that every
// reporter, `mcptest report`, shards and merges work on them.
//
// Each command's own logic lives in a sub-package (audit, fuzz, lint,
// coverage); argument generation from input schemas is argsgen.
//
// A finding is a failed or warned report test with a stable id built from
// the command, the tool (or definition) and the kind of finding, never
// from timing or order, so two runs against the same server can be
// compared test by test.
package toolkit
