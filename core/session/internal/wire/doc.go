// Package wire is the seam between a session (core/session) and the code
// that carries its messages (stdiowire, httpwire): the Wire a session
// writes through, the Sink a wire hands everything it reads to, the Call
// a request in flight is to a wire, and the vocabulary both sides share
// (the transport errors, JSON-RPC errors, redaction, sanitising, frame
// limits). It imports neither side, so that the session and its wires
// import it and not each other.
package wire
