// Package agent runs agent tests: a model drives the tools of one or more
// MCP servers from a prompt (or a scripted or simulated conversation)
// until it stops or a cap trips, and the run is recorded as a Trace whose
// JSON form is what an agent test's expect targets resolve on
// (tool_calls[0].name, conversation.stop_reason, ...).
//
// The package knows no provider and no transport: a Model answers chat
// requests (core/models' router behind an adapter, or any stand-in), and
// Tools lists and calls the tools of the servers (SessionTools over MCP
// sessions). Faults are injected between the loop and Tools in virtual
// time, so a hung tool costs no real waiting.
package agent
