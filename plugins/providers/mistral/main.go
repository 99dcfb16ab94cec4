// Command mistral is mcptest's provider plugin for Mistral AI's models
// (provider key "mistral"), over Mistral's REST API with net/http: chat
// completions (streamed with "stream": true in a request's options) and
// embeddings.
//
// The wire shape is close to OpenAI's: tool results go back as "tool"
// messages carrying the call id and the tool's name; a result with MCP's
// isError set is sent with "Error: " in front (the API has no error flag),
// and images of tool results follow in a user message after the turn's
// tool messages.
//
// The host sends the key (MISTRAL_API_KEY) and the base URL
// (MISTRAL_BASE_URL, default https://api.mistral.ai; a base ending in /v1
// is used as it is) with every call. Other options of a request are added
// to the request body.
package main

import (
	"net/http"

	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

// Identity of this plugin.
const (
	pluginName    = "mistral"
	pluginVersion = "0.1.0"
)

func main() { vendor.Serve(spec) }

// spec is the plugin for vendor.Serve and the tests.
var spec = vendor.Spec{
	Name: pluginName, Version: pluginVersion, Prices: prices,
	New: func(c *http.Client) sdk.Provider { return &provider{http: c} },
}

// prices are Mistral's list prices in US dollars per million tokens at the
// time of writing.
var prices = []sdk.ModelPrice{
	{Model: "mistral-large*", InputPerMTok: 2, OutputPerMTok: 6},
	{Model: "mistral-medium*", InputPerMTok: 0.4, OutputPerMTok: 2},
	{Model: "mistral-small*", InputPerMTok: 0.1, OutputPerMTok: 0.3},
	{Model: "mistral-embed", InputPerMTok: 0.1},
	{Model: "codestral*", InputPerMTok: 0.3, OutputPerMTok: 0.9},
	{Model: "magistral-medium*", InputPerMTok: 2, OutputPerMTok: 5},
	{Model: "magistral-small*", InputPerMTok: 0.5, OutputPerMTok: 1.5},
	{Model: "ministral-8b*", InputPerMTok: 0.1, OutputPerMTok: 0.1},
	{Model: "ministral-3b*", InputPerMTok: 0.04, OutputPerMTok: 0.04},
	{Model: "devstral*", InputPerMTok: 0.1, OutputPerMTok: 0.3},
	{Model: "pixtral-large*", InputPerMTok: 2, OutputPerMTok: 6},
	{Model: "pixtral-12b*", InputPerMTok: 0.15, OutputPerMTok: 0.15},
	{Model: "open-mistral-nemo*", InputPerMTok: 0.15, OutputPerMTok: 0.15},
	{Model: "open-mixtral-8x22b*", InputPerMTok: 2, OutputPerMTok: 6},
	{Model: "open-mixtral-8x7b*", InputPerMTok: 0.7, OutputPerMTok: 0.7},
}
