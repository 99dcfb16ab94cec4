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
package sdk
