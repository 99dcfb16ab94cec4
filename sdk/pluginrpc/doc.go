// Package pluginrpc carries the plugin contract (sdk/contract) over
// hashicorp/go-plugin's gRPC protocol. It is shared by mcptest's host and
// by the SDK:
//
//   - handshake.go: the handshake and the info plugin-set name;
//   - serve.go, gpserver.go, gpservices.go: the plugin's process side of
//     go-plugin's protocol (listener, handshake line, the health,
//     controller, stdio and broker services), served without linking
//     go-plugin, which only the host's side (hostrpc) uses;
//   - items.go: the wire items the host sends and receives (MatchItem,
//     MatchItemResult, CheckItem, ScoreItem, RenderStart, Sink, ErrorKind);
//   - toproto.go, fromproto.go: every conversion between Go types and
//     protobuf messages, both directions in one place (the exported ones
//     are the host's directions);
//   - packed.go: the packed Match encoding, both directions;
//   - failure_*.go: how a plugin bounds and encodes a failure;
//   - register.go, server_state.go, grpc_*.go, recover.go,
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
//
// # Size
//
// The package is about 3,600 lines without tests (late 2026), over the
// ~3,000 the project aims for, since two performance changes joined it:
// the go-plugin protocol served without go-plugin (gpserver.go,
// gpservices.go, ~390 lines) and the buffers a packed batch hands over to
// gRPC instead of copying (codec_handoff.go, items_source.go,
// failure_extra.go). The next move is the process side of go-plugin's
// protocol into a package of its own (sdk/pluginrpc/internal/gpserve):
// it needs only a *grpc.Server to register services on and the handshake
// values, and nothing in the packed encoding.
package pluginrpc
