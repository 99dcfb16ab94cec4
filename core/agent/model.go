package agent

import (
	"context"
	"encoding/json"

	"github.com/mcptest/mcptest/sdk"
)

// Model answers chat requests. core/models' router satisfies it through a
// small adapter; tests and record/replay substitute their own.
type Model interface {
	Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error)
}

// Tool is one tool of the merged catalogue: the server that offers it and
// its definition as listed.
type Tool struct {
	// Server is the key of the server in the suite's servers block.
	Server string `json:"server"`
	// Name is the tool's name on its server (no prefix).
	Name string `json:"name"`
	// Description is the tool's description; "" when it has none.
	Description string `json:"description,omitempty"`
	// InputSchema is the tool's input JSON Schema as listed.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// CallResult is what one tool call returned: the tools/call result as the
// server sent it and whether it is flagged isError. A JSON-RPC error or a
// transport failure is the error of Tools.Call instead.
type CallResult struct {
	// Result is the tools/call result object exactly as sent.
	Result json.RawMessage
	// IsError is the result's isError flag (absent reads as false).
	IsError bool
}

// Tools is the tool side of an agent run: the tools of the named servers,
// and calls to them by server and tool name with the model's raw JSON
// arguments.
type Tools interface {
	// List returns the tools of every server, servers in the order given
	// to the run, each server's tools in listed order.
	List(ctx context.Context) ([]Tool, error)
	// Call calls one tool. A result flagged isError is a CallResult, not
	// an error; err is a JSON-RPC error or a transport failure.
	Call(ctx context.Context, server, tool string, args json.RawMessage) (CallResult, error)
}
