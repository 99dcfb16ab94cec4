package pluginrpc

import "google.golang.org/grpc"

// HTTP/2 settings of the connection between host and plugin. It is a
// local socket, so the defaults' caution about memory and fairness on a
// shared network costs without helping: a Match call of a thousand items
// is a few hundred kilobytes each way, which the default 64 KiB flow
// control window and 32 KiB write buffer cut into many frames, window
// updates and writes, each a chance for the receiving process to be woken
// up and put to sleep again.
const (
	// transportWindow is the stream and connection flow-control window.
	// Setting it also turns off gRPC's bandwidth-delay probing, which
	// would send pings to learn the same thing.
	transportWindow = 16 << 20
	// transportBuffer is the size of the read and write buffers.
	transportBuffer = 256 << 10
	// streamWorkers is how many long-lived goroutines a server keeps to
	// run its calls. Without them gRPC starts a goroutine per call, whose
	// stack then grows again through gRPC's reading, the handler and the
	// batch's decoding on every call (newstack and copystack were ~4.6% of
	// the text plugin's samples in BenchmarkJudge100k). The host has at
	// most a few calls in flight to one plugin (two coalescer flushers,
	// vetting, a reporter's stream); a call finding every worker busy
	// gets a goroutine of its own as before.
	streamWorkers = 4
)

// Both sides turn off gRPC's shared write buffer (deprecated as an option,
// so the linter is told it is meant). Shared, the connection takes its
// 256 KiB write buffer from a sync.Pool for each flush and gives it back
// after: every collection empties that pool, and the next batch allocates
// the buffer again. The host has one connection per plugin, so keeping
// one buffer per connection costs little.

// transportServerOptions are the transport settings of a server.
func transportServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.InitialWindowSize(transportWindow),
		grpc.InitialConnWindowSize(transportWindow),
		grpc.WriteBufferSize(transportBuffer),
		grpc.ReadBufferSize(transportBuffer),
		grpc.SharedWriteBuffer(false), //nolint:staticcheck // see above
		grpc.NumStreamWorkers(streamWorkers),
	}
}

// TransportDialOptions are the transport settings of the host's
// connection to a plugin; hostrpc.GRPCDialOptions includes them.
func TransportDialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithInitialWindowSize(transportWindow),
		grpc.WithInitialConnWindowSize(transportWindow),
		grpc.WithWriteBufferSize(transportBuffer),
		grpc.WithReadBufferSize(transportBuffer),
		grpc.WithSharedWriteBuffer(false), //nolint:staticcheck // see above
	}
}
