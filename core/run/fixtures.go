package run

import (
	"fmt"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
)

// injectedOutcome synthesises the answer of a tool test that sets
// inject_error: a result holding the named fixture's JSON-RPC error, so
// that the envelope is the one the suite format describes ({"result":
// {"jsonrpc": "2.0", "error": {code, message}}}) and targets rooted at
// result. resolve. isError: true is set as well: the format's own example
// asserts result.isError on an injected error, and a tool answering with
// an error is what the fixture stands for. The answer then goes through
// the same pipeline as a real one (response transform, assertions,
// captures); nothing is sent, and the server is not even started.
func injectedOutcome(t *plan.Test) (*session.Outcome, error) {
	fe := plan.FixtureError(t.Suite, t.Tool.InjectError)
	if fe == nil {
		// The loader refuses unknown names, so only a hand-built plan gets
		// here.
		return nil, fmt.Errorf("inject_error: no fixture is named %q", t.Tool.InjectError)
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	type result struct {
		JSONRPC string   `json:"jsonrpc"`
		Error   rpcError `json:"error"`
		IsError bool     `json:"isError"`
	}
	raw, err := jsonx.Encode(result{JSONRPC: "2.0", Error: rpcError{Code: fe.Code, Message: fe.Message}, IsError: true})
	if err != nil {
		return nil, fmt.Errorf("inject_error %q: %w", fe.Name, err)
	}
	return &session.Outcome{Result: raw}, nil
}
