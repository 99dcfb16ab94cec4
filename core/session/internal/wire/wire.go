package wire

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// FrameLimit is how many bytes of one message a recorded frame keeps; a
// wire reading lines keeps this much of an over-long one, so that the
// call it answers can be found and shown.
const FrameLimit = 64 << 10

// TrimNewline drops a trailing "\n" or "\r\n".
func TrimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

// Wire moves JSON-RPC messages between a session and its server. Every
// message the server sends is handed to the session's Sink, whenever it
// arrives.
type Wire interface {
	// Send transmits msg, one complete JSON-RPC message ending in "\n". c
	// is the session call msg is the request of, or nil for other traffic
	// (mcp-go's handshake and answers, cancellations). An error means the
	// server did not take the message, or answered it with a failure; for
	// a call it is already classified (ErrTimeout, ErrTransport,
	// ErrServerExited...).
	Send(ctx context.Context, msg []byte, c Call) error
	// Stop asks the server side to end, for the session's Close: stdio
	// closes stdin and escalates to signals, HTTP aborts its streams and
	// ends the session. Its error is Close's.
	Stop() error
	// Drain waits for the wire's readers to finish and releases what they
	// held, after the session's pipe to mcp-go is closed.
	Drain()
	// Detail returns what the wire knows that explains a failed start,
	// such as the server's stderr, as "; ..." text or "".
	Detail() string
}

// Call is a request of the session's own in flight, as a wire sees it.
type Call interface {
	// ID is the request id as JSON text, as responses carry it.
	ID() string
	// Started is when the request was sent.
	Started() time.Time
	// SetExchange records what an HTTP wire learnt from the response to
	// the call's POST; it is called before Send returns.
	SetExchange(x *Exchange)
}

// Exchange is what an HTTP wire learnt from the response to a call's POST.
type Exchange struct {
	// Status and Header are the response's.
	Status int
	Header http.Header
	// RequestHeader is what was sent, with secret values redacted.
	RequestHeader http.Header
}

// Source says where a message handed to the Sink came from.
type Source struct {
	// Owner is the call whose HTTP response stream carried the message,
	// or nil (stdio, the standalone GET stream, the legacy SSE stream).
	Owner Call
	// Event and ID are the SSE event type and id, when it came over SSE.
	Event, ID string
	// Owned says the message's bytes are the session's to keep: its reader
	// does not reuse them, so a result is kept as a slice of the message
	// rather than copied out of it (a huge response is then held once).
	Owned bool
}

// Sink is what a wire sees of its session: where messages go, and how the
// session learns that it can carry no more calls.
type Sink interface {
	// Route handles one message from the server (a response, a request
	// or a notification, or text that is none of them).
	Route(msg []byte, src Source)
	// RouteTooLong handles a message over the size limit of which only
	// head was kept: the call it answers, if head names one, fails.
	RouteTooLong(head []byte, size int)
	// InputEnded says the server will send nothing more on the stream
	// the session's client reads (stdio's stdout ended).
	InputEnded()
	// Die records why the session can carry no more calls; only the
	// first reason is kept.
	Die(err error)
	// DeathError returns why the session died, or nil while it lives.
	DeathError() error
	// AwaitDeath waits up to d for the session to die and returns why,
	// or nil.
	AwaitDeath(d time.Duration) error
	// FailInit aborts a running handshake with err; it does nothing once
	// the handshake is over.
	FailInit(err error)
	// Pending reports whether c still waits for its response.
	Pending(c Call) bool
	// Fail ends c with err (a stream that broke before the response),
	// unless it has already been settled.
	Fail(c Call, err error)
	// AnswerError answers c with msg, a JSON-RPC error response whose id
	// is null or missing (rpcErr is its error object), found in the body
	// of an HTTP error status about c's POST.
	AnswerError(c Call, msg []byte, rpcErr json.RawMessage)
	// Record adds to c's frames something the server sent on c's own
	// stream that is not a message (an SSE event of another type).
	Record(c Call, data []byte, event, id string)
	// Noise returns the last non-JSON lines the server wrote, for errors.
	Noise() string
}
