// Package pluginrpc carries the plugin contract (sdk/contract) over
// hashicorp/go-plugin gRPC. It is shared by mcptest's host and by the SDK:
//
//   - handshake.go: the go-plugin handshake and the info plugin-set name;
//   - items.go: the wire items the host sends and receives (MatchItem,
//     MatchItemResult, CheckItem, ScoreItem, RenderStart, Sink, ErrorKind);
//   - toproto.go, fromproto.go: every conversion between Go types and
//     protobuf messages, both directions in one place (the exported ones
//     are the host's directions);
//   - packed.go: the packed Match encoding, both directions;
//   - failure_*.go: how a plugin bounds and encodes a failure;
//   - serve.go, gplugin.go, server_state.go, grpc_*.go, recover.go,
//     parallel.go: the plugin side, the gRPC services that run a plugin's
//     components, started by sdk.Serve.
//
// The host's side (the clients of those services and the Host service the
// host offers plugins) is the sub-package hostrpc, so a plugin binary,
// which imports this package through sdk, carries none of it.
//
// It is not author API and carries no compatibility promise: plugin code
// imports sdk (and sdk/plugintest in tests), never this package. It is
// public rather than internal because mcptest's root module, a different
// Go module, must import it.
package pluginrpc
