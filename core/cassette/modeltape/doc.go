// Package modeltape records the model exchanges of agent tests and plays
// them back, so an agent suite recorded once against a real provider runs
// again offline: no key, no network, the same answers every time.
//
// A recording is the optional "models" section of a server cassette
// (docs/cassettes.md): for each agent test run, keyed by the test name and
// model, the requests the agent loop sent in order and what the model
// answered. Replay checks that each request equals the one recorded at the
// same position and fails with a diff when it does not, so a change to the
// prompt, the tools or the loop shows up as a failure instead of as a
// silently stale answer.
//
// Both sides wrap the agent loop's model (any value with core/agent.Model's
// Complete method).
package modeltape
