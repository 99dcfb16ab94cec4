package servers

import (
	"context"
	"encoding/json"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
)

// The methods of the requests tests make.
const (
	MethodToolsCall     = "tools/call"
	MethodResourcesRead = "resources/read"
	MethodPromptsGet    = "prompts/get"
)

// Request is one call a test makes, as it goes on the wire: captures are
// substituted, and a request transform may have rewritten Args.
type Request struct {
	// Method is tools/call, resources/read or prompts/get.
	Method string
	// Name is the tool or prompt name, or the resource URI.
	Name string
	// Args holds the tool or prompt arguments, a JSON object; nil for a
	// resource read.
	Args json.RawMessage
	// Version is the protocol revision of the test (plan.Test
	// ProtocolVersion): answers at one revision never stand in for
	// another's.
	Version string
	// Trial is the test's trial (plan.Test.Trial) under --trials: each
	// trial must reach the server, so it is part of the cache key.
	Trial int
	// Raw, when set, is the request's params as they are sent (the
	// methods other than tools/call, resources/read and prompts/get).
	Raw json.RawMessage
}

// Params are the request's JSON-RPC params, as sent (the cache keys on
// them).
func (q Request) Params() json.RawMessage {
	if q.Raw != nil {
		return q.Raw
	}
	var p any
	switch q.Method {
	case MethodResourcesRead:
		p = map[string]string{"uri": q.Name}
	default:
		p = map[string]any{"name": q.Name, "arguments": ArgsOrEmpty(q.Args)}
	}
	b, _ := jsonx.Encode(p)
	return b
}

// Send makes the request on a session. Arguments are never sent as null.
func (q Request) Send(ctx context.Context, sess *session.Session) (*session.Outcome, error) {
	switch q.Method {
	case MethodToolsCall:
		return sess.CallTool(ctx, q.Name, q.Args)
	case MethodPromptsGet:
		params, _ := json.Marshal(map[string]any{"name": q.Name, "arguments": ArgsOrEmpty(q.Args)})
		return sess.Request(ctx, q.Method, params)
	}
	return sess.Request(ctx, q.Method, q.Params())
}

// ArgsOrEmpty is args, or an empty object for none: arguments are never
// sent as null.
func ArgsOrEmpty(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return json.RawMessage(`{}`)
	}
	return args
}
