package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrTimeout is wrapped by errors for a wait that ran out of time.
var ErrTimeout = errors.New("timed out")

// ErrClosed is wrapped by errors for calls made on, or interrupted by, a
// session that has been closed.
var ErrClosed = errors.New("session closed")

// ErrBadResponse is wrapped by errors for a response that is neither a
// result nor an error, cannot be decoded, or is over a size limit.
var ErrBadResponse = errors.New("malformed response")

// CtxError describes a call abandoned because ctx ended after waited. A
// context whose deadline has passed but whose timer has not yet fired
// counts as expired.
func CtxError(ctx context.Context, waited time.Duration) error {
	waited = waited.Round(time.Millisecond)
	cause := ctx.Err()
	if cause == nil || errors.Is(cause, context.DeadlineExceeded) {
		return fmt.Errorf("%w: no response after %s: %w", ErrTimeout, waited, context.DeadlineExceeded)
	}
	return fmt.Errorf("cancelled after %s: %w", waited, cause)
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

// ParseRPCError decodes a JSON-RPC error object. A malformed one is kept
// whole in Data under a message that says so.
func ParseRPCError(raw json.RawMessage) *RPCError {
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

// WriteIndented writes the lines of s, sanitised and indented, to b.
func WriteIndented(b *strings.Builder, s string) {
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

// Cut returns at most n bytes of s, not splitting a UTF-8 sequence.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := 0; i < utf8.UTFMax && n > 0 && !utf8.RuneStart(s[n]); i++ {
		n--
	}
	return s[:n]
}
