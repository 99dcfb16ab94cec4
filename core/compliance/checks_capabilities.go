package compliance

import (
	"context"
	"encoding/json"

	"github.com/mcptest/mcptest/core/probe"
)

// registerCapabilities adds the checks of this file to the registry (loadRegistry).
func registerCapabilities() {
	register(
		&Check{ID: "C01", Title: "Declared capabilities are served; undeclared ones are refused with -32601", Severity: Must,
			Section: "basic/lifecycle.mdx#capability-negotiation", run: checkC01},
		&Check{ID: "C02", Title: "No sampling, elicitation or roots requests to a client that declared none", Severity: Must,
			Section: "basic/lifecycle.mdx#capability-negotiation", run: checkC02},
	)
}

// capabilityProbe is a request that only a server with the capability
// serves.
type capabilityProbe struct {
	capability Capability
	method     string
	params     map[string]any
	// legacyOnly marks methods the modern era removed.
	legacyOnly bool
}

var capabilityProbes = []capabilityProbe{
	{CapTools, "tools/list", nil, false},
	{CapResources, "resources/list", nil, false},
	{CapPrompts, "prompts/list", nil, false},
	{CapLogging, "logging/setLevel", map[string]any{"level": "info"}, true},
	// A completion request needs a real reference to succeed, so this probe
	// only proves the undeclared case; U01 covers the declared one.
	{CapCompletions, "completion/complete", map[string]any{
		"ref":      map[string]any{"type": "ref/prompt", "name": "mcptest-probe"},
		"argument": map[string]any{"name": "x", "value": ""},
	}, false},
}

// checkC01 calls one method per capability and compares the outcome with
// what the server declared.
func checkC01(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	for _, p := range capabilityProbes {
		if p.legacyOnly && probe.IsModern(e.Revision) {
			continue
		}
		declared := e.Info.Declares(p.capability)
		if declared && p.capability == CapCompletions {
			continue
		}
		r, err := s.Call(ctx, p.method, p.params)
		name := p.method
		if declared {
			name += " (" + string(p.capability) + " declared)"
			if err != nil || r.Msg.Result == nil {
				e.fail(name, "a result", actual(r, err), "a declared capability must be served")
			} else {
				e.pass(name, "")
			}
			continue
		}
		name += " (" + string(p.capability) + " not declared)"
		code, isErr := errorCode(r)
		switch {
		case err != nil:
			e.fail(name, "error -32601", actual(r, err), "every request must be answered")
		case isErr && code == -32601:
			e.pass(name, "")
		case isErr:
			e.warn(name, "error -32601", json.RawMessage(r.Msg.Raw), "a method of an undeclared capability should be refused as not found")
		default:
			e.warn(name, "error -32601", json.RawMessage(r.Msg.Raw), "the server serves a capability it did not declare")
		}
	}
	return nil
}

// serverRequestsNeedingCaps are the server-to-client requests that need a
// client capability.
var serverRequestsNeedingCaps = map[string]string{
	"sampling/createMessage": "sampling",
	"elicitation/create":     "elicitation",
	"roots/list":             "roots",
}

// checkC02 runs an ordinary session declaring no client capabilities and
// watches for requests that would need one.
func checkC02(ctx context.Context, e *Env) error {
	// The run's first server has done nothing but the handshake, and its
	// session kept whatever the server sent since it started: watching it
	// is watching a fresh one.
	s := e.opts.pool.takePristine(e)
	if s == nil {
		var err error
		if s, err = e.connect(ctx); err != nil {
			return err
		}
	}
	for _, l := range declaredLists(e) {
		_, _ = s.Call(ctx, l.method, nil)
	}
	s.Quiet(ctx, 2*quietWindow)
	bad := 0
	for _, m := range s.ServerRequests() {
		if c, ok := serverRequestsNeedingCaps[m.Method]; ok {
			bad++
			e.fail("server request "+m.Method, "no "+m.Method+" request", json.RawMessage(m.Raw),
				"the client did not declare the "+c+" capability")
		}
	}
	if bad == 0 {
		e.pass("no requests needing undeclared client capabilities", "")
	}
	return nil
}
