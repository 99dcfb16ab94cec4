// Package timeline records when the phases of a process happen, for work
// on mcptest's own speed. With MCPTEST_TIMELINE=FILE in the environment,
// each Mark appends one line to FILE:
//
//	SECONDS PID NAME
//
// SECONDS is read from the monotonic clock (CLOCK_MONOTONIC on Linux, the
// clock `perf record -k CLOCK_MONOTONIC` stamps its events with), so the
// marks of mcptest line up with a scheduler or perf trace of the same run
// and with the marks of other processes writing to the same file. Without
// the variable, Mark costs a load and a compare.
package timeline

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// Env names the file the marks are appended to.
const Env = "MCPTEST_TIMELINE"

var (
	// state is 0 before the first Mark, 1 once the variable was found
	// unset (or the file could not be opened), 2 while marks are written.
	state atomic.Int32
	open  sync.Once
	mu    sync.Mutex
	out   *os.File
)

// Mark records that the phase name is reached now.
func Mark(name string) {
	if on() {
		write(name)
	}
}

// MarkOf records that phase is reached now for subject (a server, a
// plugin): the line's name is "phase subject", built only when marks are
// on.
func MarkOf(phase, subject string) {
	if on() {
		write(phase + " " + subject)
	}
}

// on reports whether marks are written, opening the file on first use.
func on() bool {
	switch state.Load() {
	case 1:
		return false
	case 0:
		open.Do(func() { start(os.Getenv(Env)) })
		return state.Load() == 2
	}
	return true
}

// write appends the line of one mark.
func write(name string) {
	line := fmt.Sprintf("%.6f %d %s\n", now(), os.Getpid(), name)
	mu.Lock()
	defer mu.Unlock()
	_, _ = out.WriteString(line)
}

// start opens path for the marks; "" turns them off.
func start(path string) {
	if path == "" {
		state.Store(1)
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcptest: %s: %v\n", Env, err)
		state.Store(1)
		return
	}
	out = f
	state.Store(2)
}
