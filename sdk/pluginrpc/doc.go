// Package pluginrpc carries the plugin contract (sdk/contract) over
// hashicorp/go-plugin gRPC. It is shared by mcptest's host and by the SDK:
// the go-plugin handshake and plugin sets (handshake.go, gplugin.go), the
// gRPC services that run a plugin's components (grpc_*.go, the plugin
// side, started by Serve), the host-side clients (InfoClient,
// MatcherClient, ReporterClient, ProviderClient, ScorerClient) with the
// wire items they send and receive (MatchItem, MatchItemResult, RenderStart
// ...), the conversions between Go types and protobuf messages
// (toproto.go, fromproto.go), the packed Match encoding (packed.go) and
// the bounding and encoding of failures (failure_*.go).
//
// It is not author API and carries no compatibility promise: plugin code
// imports sdk (and sdk/plugintest in tests), never this package. It is
// public rather than internal because mcptest's root module, a different
// Go module, must import it.
package pluginrpc
