package plan

import (
	"encoding/json"

	"github.com/mcptest/mcptest/core/target"
)

// The one normalisation of what a server sent: MCP defines a tool result
// without isError as not an error, so the result targets read (assertions,
// captures) has "isError": false when the server left the field out,
// appended after the server's own keys. It is a view: the response's
// bytes, the wire frames, the report's copy of the response, cassettes and
// the input of a response transform stay exactly as sent. Only tool calls
// get it; resources, prompts and the other envelopes have no isError.

// isErrorFill is the normalisation as targets read it, in place.
var isErrorFill = &target.Fill{At: target.MustParse("result"), Key: "isError", Value: json.RawMessage("false")}

// ResultFill is the normalisation targets read t's envelope with, in
// place: the isError fill for tool tests, nil for every other kind.
func (t *Test) ResultFill() *target.Fill {
	if t.Kind == KindTool {
		return isErrorFill
	}
	return nil
}

// FillDecoded applies the normalisation to a decoded envelope of t.
func FillDecoded(t *Test, root any) {
	if t.Kind != KindTool {
		return
	}
	env, ok := root.(map[string]any)
	if !ok {
		return
	}
	if res, ok := env["result"].(map[string]any); ok {
		if _, has := res["isError"]; !has {
			res["isError"] = false
		}
	}
}
