// Package servers owns the MCP servers of a run: it starts each one on
// first use (stdio, URL or cassette), shares its session among the tests
// or gives a test the session alone (exclusivity), restarts it per test
// when the suite's restart_policy asks, works on fresh fixture copies and
// removes them, closes every session at the end, and answers identical
// requests from the result cache. Request is one call a test makes, as it
// goes on the wire.
package servers
