// Command openai is mcptest's provider plugin for OpenAI's models and for
// every OpenAI-compatible endpoint a suite declares under providers: with
// type: openai (OpenRouter, Azure OpenAI, vLLM, LiteLLM, Ollama and the
// like), on the official Go SDK (github.com/openai/openai-go). It speaks
// Chat Completions and the embeddings API.
//
// Tool results go back as tool messages. Chat Completions has no error
// flag on a tool message, so a result with MCP's isError set is sent with
// the text "Error: " in front; it has no images in tool messages either,
// so the images of a result follow in a user message right after the tool
// messages of that turn.
//
// OpenAI's own models get max_completion_tokens (its newer models refuse
// max_tokens); providers: entries get max_tokens, which the compatible
// servers understand. A providers: entry without api_key_env is sent
// "Authorization: Bearer EMPTY". The host sends the key, the base URL
// (OPENAI_BASE_URL or the entry's base_url) and the organization
// (OPENAI_ORG_ID or the entry's organization) with every call; the plugin
// reads none of them from its environment. Options of a request are sent
// as extra top-level fields, except "stream": true, which uses the
// streaming API.
package main

import (
	"net/http"

	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk"
)

// Identity of this plugin.
const (
	pluginName    = "openai"
	pluginVersion = "0.1.0"
)

func main() { vendor.Serve(spec) }

// spec is the plugin for vendor.Serve and the tests.
var spec = vendor.Spec{
	Name: pluginName, Version: pluginVersion, Prices: prices,
	// The SDK would otherwise read these by itself, and send an
	// organization meant for OpenAI to a third-party endpoint.
	Scrub: []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_ADMIN_KEY", "OPENAI_WEBHOOK_SECRET", "OPENAI_CUSTOM_HEADERS"},
	New:   func(c *http.Client) sdk.Provider { return &provider{http: c} },
}

// prices are OpenAI's list prices in US dollars per million tokens at the
// time of writing; a providers: entry can set its own.
var prices = []sdk.ModelPrice{
	{Model: "gpt-5-nano*", InputPerMTok: 0.05, OutputPerMTok: 0.4},
	{Model: "gpt-5-mini*", InputPerMTok: 0.25, OutputPerMTok: 2},
	{Model: "gpt-5*", InputPerMTok: 1.25, OutputPerMTok: 10},
	{Model: "gpt-4.1-nano*", InputPerMTok: 0.1, OutputPerMTok: 0.4},
	{Model: "gpt-4.1-mini*", InputPerMTok: 0.4, OutputPerMTok: 1.6},
	{Model: "gpt-4.1*", InputPerMTok: 2, OutputPerMTok: 8},
	{Model: "gpt-4o-mini*", InputPerMTok: 0.15, OutputPerMTok: 0.6},
	{Model: "gpt-4o*", InputPerMTok: 2.5, OutputPerMTok: 10},
	{Model: "chatgpt-4o*", InputPerMTok: 5, OutputPerMTok: 15},
	{Model: "o1-mini*", InputPerMTok: 1.1, OutputPerMTok: 4.4},
	{Model: "o1*", InputPerMTok: 15, OutputPerMTok: 60},
	{Model: "o3-mini*", InputPerMTok: 1.1, OutputPerMTok: 4.4},
	{Model: "o3*", InputPerMTok: 2, OutputPerMTok: 8},
	{Model: "o4-mini*", InputPerMTok: 1.1, OutputPerMTok: 4.4},
	{Model: "text-embedding-3-small", InputPerMTok: 0.02},
	{Model: "text-embedding-3-large", InputPerMTok: 0.13},
	{Model: "text-embedding-ada-002", InputPerMTok: 0.1},
}
