// Command gemini is mcptest's provider plugin for Google's Gemini models
// (provider key "gemini") on the official Go SDK (google.golang.org/genai),
// against the Gemini API: generateContent (streamed with "stream": true in a
// request's options) and embeddings.
//
// Tool results go back as functionResponse parts, addressed by the tool's
// name: {"output": text} (with "structuredContent" when the result had
// structured content), or {"error": text} for a result with MCP's isError
// set, which is how the Gemini API expects a function's failure; images
// travel as inline data of the function response. Gemini may omit call
// ids; the plugin then names calls call_<turn>_<n>, stable for a given
// conversation.
//
// The host sends the key (GEMINI_API_KEY or GOOGLE_API_KEY) and the base URL
// (GOOGLE_GEMINI_BASE_URL) with every call; the plugin reads none from its
// environment. Other options of a request are added to the request body.
package main

import (
	"net/http"

	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

// Identity of this plugin.
const (
	pluginName    = "gemini"
	pluginVersion = "0.1.0"
)

func main() { vendor.Serve(spec) }

// spec is the plugin for vendor.Serve and the tests.
var spec = vendor.Spec{
	Name: pluginName, Version: pluginVersion, Prices: withModelsPrefix(prices),
	// The SDK would otherwise read these by itself (and might pick Vertex).
	Scrub: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE",
		"GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_CLOUD_REGION", "GOOGLE_VERTEX_BASE_URL"},
	New: func(c *http.Client) sdk.Provider { return &provider{http: c} },
}

// prices are Google's list prices in US dollars per million tokens (for
// prompts up to 200k tokens) at the time of writing.
var prices = []sdk.ModelPrice{
	{Model: "gemini-2.5-pro*", InputPerMTok: 1.25, OutputPerMTok: 10},
	{Model: "gemini-2.5-flash-lite*", InputPerMTok: 0.1, OutputPerMTok: 0.4},
	{Model: "gemini-2.5-flash*", InputPerMTok: 0.3, OutputPerMTok: 2.5},
	{Model: "gemini-2.0-flash-lite*", InputPerMTok: 0.075, OutputPerMTok: 0.3},
	{Model: "gemini-2.0-flash*", InputPerMTok: 0.1, OutputPerMTok: 0.4},
	{Model: "gemini-1.5-pro*", InputPerMTok: 1.25, OutputPerMTok: 5},
	{Model: "gemini-1.5-flash*", InputPerMTok: 0.075, OutputPerMTok: 0.3},
	{Model: "gemini-embedding-001", InputPerMTok: 0.15},
	{Model: "text-embedding-004", InputPerMTok: 0},
}

// withModelsPrefix adds each row again under "models/", the other spelling
// of a Gemini model id.
func withModelsPrefix(rows []sdk.ModelPrice) []sdk.ModelPrice {
	out := append([]sdk.ModelPrice(nil), rows...)
	for _, r := range rows {
		r.Model = "models/" + r.Model
		out = append(out, r)
	}
	return out
}
