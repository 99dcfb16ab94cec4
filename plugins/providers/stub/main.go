// Command stub is mcptest's deterministic model provider: the model named
// `stub`. It calls no vendor and needs no key, so agent tests, judges and
// docs examples run offline and give the same answer every time. It is
// chosen only when a suite names the model `stub`; a real model without
// its key is deferred by the host, never silently answered by the stub.
//
// What it answers is decided by the request alone (no state is kept
// between calls), in one of two modes.
//
// Scripted: the request's options carry {"script": [step, ...]}, or the
// environment variable MCPTEST_STUB_SCRIPT names a JSON file holding the
// same object. Step n answers the request that already holds n assistant
// messages, so a conversation walks the script in order. A step is
//
//	{"text": "...", "tool_calls": [{"name": "...", "arguments": {...}}],
//	 "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 2}}
//
// with every field optional (stop_reason defaults to tool_use when the
// step calls tools and end_turn otherwise; usage defaults to the estimate
// below). A conversation that runs past the script is an error.
//
// Default: when tools are offered and the model has not called one since
// the last user message, it calls the first offered tool once, with
// arguments built from the tool's input schema (required properties only,
// each the schema's const, default, first enum value, or the simplest
// value of its type within its bounds). Otherwise it answers with text:
// "stub: <tool> returned: <result>" (or "failed:" for an isError result)
// after a tool result, else "stub: <last user message>", each cut to 200
// characters.
//
// Usage is an estimate of one token per four bytes of everything sent
// (system prompt, messages, tool definitions) and of the answer; a
// request's max_tokens cuts the text answer to that many tokens with stop
// reason max_tokens. Embeddings are 64-dimension unit vectors of hashed
// words, so texts sharing words are close. Its price is zero.
package main

import "github.com/mcptest/mcptest/sdk"

// Identity of this plugin.
const (
	pluginName    = "stub"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

func newPlugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:      pluginName,
		Version:   pluginVersion,
		Providers: map[string]sdk.Provider{"stub": &stub{readFile: readScriptFile}},
		Prices:    []sdk.ModelPrice{{Model: "stub*"}},
	}
}
