// Command anthropic is mcptest's provider plugin for Anthropic's Claude
// models (provider key "anthropic"), on the official Go SDK
// (github.com/anthropics/anthropic-sdk-go). It speaks the Messages API:
// tools as tool definitions, tool results as tool_result blocks (text and
// images, is_error set from MCP's isError), stop reasons and usage mapped
// to mcptest's neutral ones. Anthropic has no embeddings API, so Embed
// answers "unsupported".
//
// The host sends the key, the base URL (ANTHROPIC_BASE_URL) and the
// variable the key came from with every call; the plugin reads no key from
// its environment. Options of a request are sent as extra top-level fields
// of the Messages request, except "stream": true, which makes the plugin
// use the streaming API and assemble the reply.
package main

import (
	"net/http"

	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

// Identity of this plugin.
const (
	pluginName    = "anthropic"
	pluginVersion = "0.1.0"
)

func main() { vendor.Serve(spec) }

// spec is the plugin for vendor.Serve and the tests.
var spec = vendor.Spec{
	Name: pluginName, Version: pluginVersion, Prices: prices,
	// The SDK would otherwise read these by itself.
	Scrub: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE", "ANTHROPIC_CONFIG_DIR"},
	New:   func(c *http.Client) sdk.Provider { return &provider{http: c} },
}

// prices are Anthropic's list prices in US dollars per million tokens at
// the time of writing; a providers: entry can override them.
var prices = []sdk.ModelPrice{
	{Model: "claude-opus-4-5*", InputPerMTok: 5, OutputPerMTok: 25},
	{Model: "claude-opus-4*", InputPerMTok: 15, OutputPerMTok: 75},
	{Model: "claude-sonnet-4*", InputPerMTok: 3, OutputPerMTok: 15},
	{Model: "claude-haiku-4*", InputPerMTok: 1, OutputPerMTok: 5},
	{Model: "claude-3-7-sonnet*", InputPerMTok: 3, OutputPerMTok: 15},
	{Model: "claude-3-5-sonnet*", InputPerMTok: 3, OutputPerMTok: 15},
	{Model: "claude-3-5-haiku*", InputPerMTok: 0.8, OutputPerMTok: 4},
	{Model: "claude-3-opus*", InputPerMTok: 15, OutputPerMTok: 75},
	{Model: "claude-3-haiku*", InputPerMTok: 0.25, OutputPerMTok: 1.25},
}
