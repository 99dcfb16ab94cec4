package plugin

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors callers test with errors.Is.
var (
	// ErrChecksumMismatch: the executable does not hash to the manifest's
	// sha256.
	ErrChecksumMismatch = errors.New("plugin checksum mismatch")
	// ErrProtocolMismatch: the plugin speaks no protocol version this
	// mcptest speaks.
	ErrProtocolMismatch = errors.New("plugin protocol version mismatch")
	// ErrUnsafeExecutable: the executable resolves outside its folder or is
	// writable by anyone.
	ErrUnsafeExecutable = errors.New("unsafe plugin executable")
	// ErrDescribeMismatch: the binary describes itself differently from its
	// manifest.
	ErrDescribeMismatch = errors.New("plugin does not match its manifest")
	// ErrPluginStart: the plugin could not be started.
	ErrPluginStart = errors.New("plugin failed to start")
	// ErrPluginCrashed: the plugin process exited during the run.
	ErrPluginCrashed = errors.New("plugin crashed")
	// ErrPluginHung: the plugin did not answer within the call deadline.
	ErrPluginHung = errors.New("plugin did not answer in time")
	// ErrBadResult: the plugin answered something no verdict can be built
	// from (a missing result).
	ErrBadResult = errors.New("plugin returned an invalid result")
)

// PluginError is a failure of one plugin process, carrying what a person
// needs to find the cause: which plugin, which binary, and the last lines
// it wrote to stderr.
type PluginError struct {
	Plugin  string
	Version string
	Path    string
	// Err is the cause; it wraps one of the sentinels above.
	Err        error
	StderrTail string
	// Final is set when the failure stands for the rest of the run (the
	// plugin crashed, or was stopped for good after hanging again), as
	// opposed to one call's failure after which the plugin goes on.
	Final bool
}

// Error renders the failure on one line, followed by the stderr tail.
func (e *PluginError) Error() string {
	var b strings.Builder
	sep := ": "
	var stopped *stoppedError
	if errors.As(e.Err, &stopped) {
		// "plugin x@1 was stopped after it hung on ..." reads as a sentence.
		sep = " "
	}
	fmt.Fprintf(&b, "plugin %s@%s%s%v", e.Plugin, e.Version, sep, e.Err)
	if e.Path != "" {
		fmt.Fprintf(&b, " (%s)", e.Path)
	}
	if tail := strings.TrimSpace(e.StderrTail); tail != "" {
		b.WriteString("\n  last stderr lines:\n")
		for _, line := range strings.Split(tail, "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Unwrap returns the cause.
func (e *PluginError) Unwrap() error { return e.Err }

func newPluginError(f *Found, err error, tail string) *PluginError {
	return &PluginError{Plugin: f.Manifest.Name, Version: f.Manifest.Version, Path: f.Executable(), Err: err, StderrTail: tail}
}
