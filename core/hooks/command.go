package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/mcptest/mcptest/internal/proc"
)

// Errors of runCommand, for errors.Is.
var (
	// ErrCommandTimeout is wrapped when a hook or transform outlives its
	// timeout and is killed with its process group.
	ErrCommandTimeout = errors.New("timed out")
	// ErrCommandExit matches the error of a command that exits with a
	// non-zero status or is killed by a signal.
	ErrCommandExit = errors.New("non-zero exit")
	// ErrCommandOutput is wrapped when a command prints more than its
	// output limit on stdout, or output that is not what the contract asks.
	ErrCommandOutput = errors.New("bad output")
)

// ioGrace is how long a finished (or killed) command's output pipes may
// stay open. A hook that leaves a background process holding its stdout
// (a fixture started with &) would otherwise block the run until that
// process exits.
const ioGrace = 500 * time.Millisecond

// stderrTail is how much of a command's stderr reports and errors keep.
const stderrTail = 4 << 10

// command is one hook or transform invocation.
type command struct {
	// argv is the program and its arguments, already split.
	argv []string
	// env is the complete environment of the process.
	env []string
	// stdin is written to the process's standard input; nil gives it an
	// empty one.
	stdin []byte
	// timeout bounds the run; the process group is killed when it expires.
	timeout time.Duration
	// stdoutMax is the most stdout kept. With tail set, the last bytes
	// are kept and the rest dropped silently (report output); otherwise
	// the first bytes are kept and more is an ErrCommandOutput (a value
	// that must be complete).
	stdoutMax int
	tail      bool
}

// commandResult is what a finished command left behind.
type commandResult struct {
	// stdout is the captured standard output (see command.stdoutMax).
	stdout []byte
	// stderr is the tail of the standard error.
	stderr string
	// exitCode is the exit status, or -1 when the process did not exit
	// on its own (never started, killed).
	exitCode int
	// pgid is the process group the command ran in (0 when it never
	// started).
	pgid int
	// duration is the wall-clock time of the run.
	duration time.Duration
	// err is nil for a command that started, exited 0 within its timeout
	// and stayed within its output limit.
	err error
}

// runCommand runs c directly (never through a shell) in its own process
// group. On timeout, or when ctx ends, the whole group is killed, so no
// child the command spawned outlives it.
func runCommand(ctx context.Context, c command) (res commandResult) {
	start := time.Now()
	res.exitCode = -1
	defer func() { res.duration = time.Since(start) }()
	if len(c.argv) == 0 {
		res.err = errors.New("empty command")
		return res
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	cmd := exec.CommandContext(cctx, c.argv[0], c.argv[1:]...)
	cmd.Env = c.env
	if c.stdin != nil {
		cmd.Stdin = bytes.NewReader(c.stdin)
	}
	var stdout io.Writer
	var head *headBuffer
	var tailOut *tailBuffer
	if c.tail {
		tailOut = &tailBuffer{proc.Tail{Max: c.stdoutMax}}
		stdout = tailOut
	} else {
		head = &headBuffer{max: c.stdoutMax}
		stdout = head
	}
	errOut := &tailBuffer{proc.Tail{Max: stderrTail}}
	cmd.Stdout, cmd.Stderr = stdout, errOut
	proc.SetGroup(cmd)
	cmd.Cancel = func() error { return proc.KillGroup(cmd) }
	cmd.WaitDelay = ioGrace

	if err := cmd.Start(); err != nil {
		res.err = fmt.Errorf("start: %w", err)
		return res
	}
	res.pgid = cmd.Process.Pid
	err := cmd.Wait()
	if cmd.ProcessState != nil {
		res.exitCode = cmd.ProcessState.ExitCode()
	}
	res.stderr = errOut.String()
	if c.tail {
		res.stdout = []byte(tailOut.String())
	} else {
		res.stdout = head.Bytes()
	}
	switch {
	case errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		res.exitCode = -1
		res.err = fmt.Errorf("%w after %s; its process group was killed", ErrCommandTimeout, c.timeout)
	case ctx.Err() != nil:
		res.exitCode = -1
		res.err = fmt.Errorf("interrupted: %w", ctx.Err())
	case res.exitCode > 0:
		res.err = &exitError{fmt.Sprintf("exited with status %d", res.exitCode)}
	case res.exitCode < 0:
		res.err = &exitError{fmt.Sprintf("did not exit normally: %v", err)}
	case head != nil && head.over:
		res.err = fmt.Errorf("%w: more than %d bytes on stdout", ErrCommandOutput, c.stdoutMax)
	}
	// A zero exit with ErrWaitDelay only means a background child kept
	// the output pipes open: the command itself succeeded.
	return res
}

// exitError is the error of a command that failed on its own; it
// matches ErrCommandExit.
type exitError struct{ msg string }

func (e *exitError) Error() string        { return e.msg }
func (e *exitError) Is(target error) bool { return target == ErrCommandExit }

// headBuffer keeps the first max bytes written to it and notes whether
// more came. It never fails a write, so the process is never blocked or
// broken by a full pipe.
type headBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *headBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room < len(p) {
		b.over = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

// Bytes returns what was kept.
func (b *headBuffer) Bytes() []byte { return b.buf.Bytes() }

// tailBuffer keeps the last bytes written to it (see proc.Tail).
type tailBuffer struct{ proc.Tail }

// String returns the tail kept, marked when the start was dropped.
func (b *tailBuffer) String() string {
	if b.Dropped() > 0 {
		return "…" + b.Tail.String()
	}
	return b.Tail.String()
}
