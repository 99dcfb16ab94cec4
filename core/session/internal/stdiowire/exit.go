package stdiowire

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// ErrServerExited is matched (errors.Is) by errors for calls that could not
// complete because the server process died or closed its stdout. The error
// is a *ServerExitError carrying the exit status and the stderr tail.
var ErrServerExited = errors.New("server exited")

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
		wire.WriteIndented(&b, e.StdoutNoise)
	}
	if e.StderrTail != "" {
		b.WriteString("; stderr tail:\n")
		wire.WriteIndented(&b, e.StderrTail)
	} else {
		b.WriteString("; no stderr output")
	}
	return b.String()
}

// Is reports whether target is ErrServerExited.
func (e *ServerExitError) Is(target error) bool { return target == ErrServerExited }

// statusRunning is ServerExitError.Status for a live process that closed stdout.
const statusRunning = "still running"
