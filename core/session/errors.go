package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrServerExited is matched (errors.Is) by errors for calls that could not
// complete because the server process died or closed its stdout. The error
// is a *ServerExitError carrying the exit status and the stderr tail.
var ErrServerExited = errors.New("server exited")

// ErrTimeout is wrapped by errors for a wait that ran out of time: a call
// whose context deadline passed, an initialize handshake that took longer
// than StdioConfig.InitTimeout, or a stdin write the server did not read.
var ErrTimeout = errors.New("timed out")

// ErrClosed is wrapped by errors for calls made on, or interrupted by, a
// session that Close has shut down.
var ErrClosed = errors.New("session closed")

// ErrBadResponse is wrapped by errors for a response the server sent with
// the call's id that is neither a result nor an error, that cannot be
// decoded (broken JSON, or nesting deeper than encoding/json's limit of
// 10,000 levels), or that exceeded StdioConfig.MaxMessageBytes.
var ErrBadResponse = errors.New("malformed response")

// ServerExitError describes a server that went away. errors.Is(err,
// ErrServerExited) is true for it.
type ServerExitError struct {
	// Server is the session's name (StdioConfig.Name).
	Server string
	// Status is how the process ended, such as "exit status 3" or
	// "signal: killed", or "still running" when it only closed stdout.
	Status string
	// ExitCode is the exit status, or -1 when the process was killed by a
	// signal or has not exited.
	ExitCode int
	// StderrTail is the last lines the server wrote to stderr.
	StderrTail string
	// StdoutNoise is the last non-JSON lines the server wrote to stdout,
	// which often explain a failed start (a banner, a usage message).
	StdoutNoise string
}

// Error implements error. Server-supplied text is sanitised: control
// characters and ANSI escapes are shown escaped.
func (e *ServerExitError) Error() string {
	var b strings.Builder
	if e.Status == statusRunning {
		fmt.Fprintf(&b, "server %q closed its stdout (process still running)", e.Server)
	} else {
		fmt.Fprintf(&b, "server %q exited (%s)", e.Server, e.Status)
	}
	if e.StdoutNoise != "" {
		b.WriteString("; non-JSON output on stdout:\n")
		writeIndented(&b, e.StdoutNoise)
	}
	if e.StderrTail != "" {
		b.WriteString("; stderr tail:\n")
		writeIndented(&b, e.StderrTail)
	} else {
		b.WriteString("; no stderr output")
	}
	return b.String()
}

// Is reports whether target is ErrServerExited.
func (e *ServerExitError) Is(target error) bool { return target == ErrServerExited }

// statusRunning is ServerExitError.Status for a live process that closed stdout.
const statusRunning = "still running"

// writeIndented writes the lines of s, sanitised and indented, to b.
func writeIndented(b *strings.Builder, s string) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("  | ")
		b.WriteString(Sanitize(line))
	}
}

// Sanitize makes server-supplied text safe to print in a terminal or a
// report: control characters (ANSI escapes included) other than tab become
// \xNN, and invalid UTF-8 becomes U+FFFD.
func Sanitize(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case (r < 0x20 && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// RPCError is a JSON-RPC error response, as the server sent it. It is an
// outcome of a call, not a transport failure.
type RPCError struct {
	// Code is the JSON-RPC error code, such as -32602 (invalid params).
	Code int `json:"code"`
	// Message is the server's error message.
	Message string `json:"message"`
	// Data is the error's data member, raw, or nil when absent.
	Data json.RawMessage `json:"data,omitempty"`
}

// Error implements error, so an RPCError can be returned or wrapped when a
// caller wants to treat it as one.
func (e *RPCError) Error() string {
	return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, Sanitize(e.Message))
}

// parseRPCError decodes a JSON-RPC error object. A malformed one is kept
// whole in Data under a message that says so.
func parseRPCError(raw json.RawMessage) *RPCError {
	var wire struct {
		Code    json.Number     `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &wire); err == nil {
		if code, err := wire.Code.Int64(); err == nil {
			return &RPCError{Code: int(code), Message: wire.Message, Data: wire.Data}
		}
	}
	return &RPCError{Message: "malformed JSON-RPC error object", Data: append(json.RawMessage(nil), raw...)}
}
