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
// and hashicorp/go-plugin's protocol stay behind Serve. Tests serve a plugin in-process
// with sdk/plugintest; reporters read the run through sdk/report. Those
// three packages are the whole author API. The package imports nothing
// from mcptest's core and none of its heavy dependencies, and the SDK is a
// Go module of its own (github.com/mcptest/mcptest/sdk), so a plugin's
// module requires it and nothing else from mcptest.
//
// # How the packages fit
//
//   - sdk/contract defines the author types (Plugin, Matcher, MatchInput,
//     Reporter, RenderSession, Provider, ChatRequest, Scorer, Host, ...)
//     and the protocol constants. It has no transport and imports only
//     the standard library and sdk/report.
//   - sdk/pluginrpc is the transport: the go-plugin protocol, the gRPC
//     services that run a plugin's components (the adapters), the wire
//     items and the codecs between them and protobuf (including the
//     packed Match encoding). mcptest's host and this package share it.
//     The host's clients are in sdk/pluginrpc/hostrpc, which a plugin
//     binary does not link. Neither is author API; neither carries a
//     compatibility promise.
//   - sdk (this package) re-exports the contract's types under their
//     familiar names (type aliases, so sdk.Matcher and contract.Matcher
//     are one type) and adds Serve, which validates the plugin and hands
//     it to pluginrpc.
//
// The split answers an import cycle: the adapters work on the author types,
// so pluginrpc must import them, and Serve must call the adapters, so the
// package that holds Serve must import pluginrpc. With the types in sdk
// itself, sdk and pluginrpc would import each other. Moving only Serve to a
// package of its own would make every plugin import two packages and rename
// a call every plugin makes; an init-registered hook would need a blank
// import in every plugin's main. A leaf package for the types, aliased
// here, keeps sdk.Serve and every author-facing name as they were. The
// author types live in contract rather than in an internal package
// because mcptest's root module (the host) uses them too, and it cannot
// import the SDK module's internal packages.
package sdk
