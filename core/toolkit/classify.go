package toolkit

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/session"
)

// Health is how a tool call went, from the server's robustness point of
// view.
type Health string

// The healths. A tool that answers, even with isError: true or with
// -32602 for arguments it rejects, handled its input; any other JSON-RPC
// error or a dying transport means it did not; a call that did not end in
// time timed out.
const (
	Healthy  Health = "healthy"
	Crashed  Health = "crashed"
	TimedOut Health = "timed_out"
)

// codeInvalidParams is JSON-RPC's "invalid params": the server checked
// the arguments and refused them, which is a correct answer.
const codeInvalidParams = -32602

// Verdict classifies one tool call.
type Verdict struct {
	Health Health
	// Kind names the answer precisely and is stable, so findings group by
	// it: "result", "tool_error", "invalid_params", "rpc_error_-32603",
	// "server_exited", "transport", "timeout".
	Kind string
	// Code is the JSON-RPC error code, when the server answered with one.
	Code int
	// Detail says what happened in words (error message, exit status).
	Detail string
}

// Classify reads a call's outcome (out, err as session.CallTool or
// Request return them).
func Classify(out *session.Outcome, err error) Verdict {
	switch {
	case err != nil && (errors.Is(err, session.ErrTimeout) || errors.Is(err, context.DeadlineExceeded)):
		return Verdict{Health: TimedOut, Kind: "timeout", Detail: err.Error()}
	case err != nil && errors.Is(err, session.ErrServerExited):
		return Verdict{Health: Crashed, Kind: "server_exited", Detail: err.Error()}
	case err != nil:
		return Verdict{Health: Crashed, Kind: "transport", Detail: err.Error()}
	case out == nil:
		return Verdict{Health: Crashed, Kind: "transport", Detail: "no answer"}
	case out.RPCError != nil && out.RPCError.Code == codeInvalidParams:
		return Verdict{Health: Healthy, Kind: "invalid_params", Code: codeInvalidParams, Detail: out.RPCError.Message}
	case out.RPCError != nil:
		return Verdict{Health: Crashed, Kind: fmt.Sprintf("rpc_error_%d", out.RPCError.Code), Code: out.RPCError.Code, Detail: out.RPCError.Message}
	case out.IsError():
		return Verdict{Health: Healthy, Kind: "tool_error"}
	}
	return Verdict{Health: Healthy, Kind: "result"}
}

// Fatal reports whether the verdict means the session can carry no more
// calls (the server died or the transport broke), so a fresh one is
// needed.
func (v Verdict) Fatal() bool {
	return v.Kind == "server_exited" || v.Kind == "transport"
}
