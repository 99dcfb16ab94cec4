// Package sdk is what a plugin author imports to write an mcptest plugin: a
// matcher family, a reporter format, a model provider or a scorer.
//
// A plugin is one executable that calls Serve with the components it offers.
// One binary may serve several keys of several kinds:
//
//	func main() {
//		sdk.Serve(&sdk.Plugin{
//			Name:    "acme-matchers",
//			Version: "1.0.0",
//			Matchers: map[string]sdk.Matcher{
//				"acme-order-id": sdk.MatcherFunc(matchOrderID),
//			},
//		})
//	}
//
// Authors see Go types only; the gRPC protocol (package mcptest.plugin.v1)
// and hashicorp/go-plugin stay behind Serve. The package imports nothing
// from mcptest's core and none of its heavy dependencies.
//
// The SDK is a Go module of its own (github.com/mcptest/mcptest/sdk), so a
// plugin's module requires it and nothing else from mcptest.
//
// The host-side clients (InfoClient, MatcherClient, ReporterClient,
// ProviderClient, ScorerClient, ClientPluginSet, GRPCDialOptions) and the
// wire items they carry are exported for mcptest itself and for
// sdk/plugintest; they are not author API and carry no compatibility
// promise. They live here rather than in an internal package because the
// root module cannot import the SDK module's internal packages, and the
// plugin-side adapters and these clients share one wire codec (packed.go,
// toproto.go, fromproto.go) that works on the author types.
package sdk
