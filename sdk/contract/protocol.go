package contract

// ProtocolVersion is the major plugin protocol version; it equals the proto
// package version (mcptest.plugin.v1) and go-plugin's handshake version.
const ProtocolVersion = 1

// ProtocolMinor counts additive changes to protocol version 1. Plugins
// report it from Describe so the host can tell which optional RPCs exist.
// Minor 1: Match batches in the packed encoding.
const ProtocolMinor = 1

// Version is the SDK's own version, reported by Describe.
const Version = "0.1.0"

// MaxMessageBytes is the gRPC message size limit both sides use. The default
// of 4 MiB is too small for a run report or a large tool response.
const MaxMessageBytes = 256 << 20

// The component kinds. They are also the go-plugin plugin-set names.
const (
	KindMatcher  = "matcher"
	KindReporter = "reporter"
	KindProvider = "provider"
	KindScorer   = "scorer"
)

// Kinds lists the component kinds in a fixed order.
var Kinds = []string{KindMatcher, KindReporter, KindProvider, KindScorer}
