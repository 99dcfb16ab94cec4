package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/mcptest/mcptest/internal/lines"
	"github.com/mcptest/mcptest/internal/proc"
)

// Errors of the stdio transport.
var (
	// ErrTimeout means a wait ran out before anything arrived.
	ErrTimeout = errors.New("timed out")
	// ErrEOF means the server closed its stdout (it usually exited).
	ErrEOF = errors.New("server closed stdout")
)

// StdioOptions says how to start a stdio server.
type StdioOptions struct {
	// Command is the program and its arguments; it must not be empty.
	Command []string
	// Env is added to mcptest's own environment.
	Env []string
	// Dir is the working directory; "" means the current one.
	Dir string
	// TailBytes bounds the kept tail of stdout and of stderr; 0 means
	// DefaultTailBytes.
	TailBytes int
	// MaxLine bounds one stdout line; longer lines are cut and flagged.
	// 0 means DefaultMaxLine.
	MaxLine int
	// MaxQueued bounds the bytes of lines read but not yet taken with Next;
	// lines beyond it are dropped and counted, so a server flooding stdout
	// cannot exhaust memory. 0 means DefaultMaxQueued.
	MaxQueued int
}

// Defaults of StdioOptions.
const (
	DefaultMaxLine   = 16 << 20
	DefaultMaxQueued = 64 << 20
	// closeGrace is how long Close waits after closing stdin before it
	// sends SIGTERM: many servers keep running on timers after their
	// input ends (server-everything does), and a longer wait only holds
	// up whoever waits for the close. termGrace is how long SIGTERM gets
	// before SIGKILL, the same as a test run's teardown gives.
	closeGrace = 100 * time.Millisecond
	termGrace  = 500 * time.Millisecond
)

// Line is one line the server wrote to stdout, without its newline.
type Line struct {
	Data []byte
	// Truncated is set when the line exceeded MaxLine; Data is its prefix.
	Truncated bool
	At        time.Time
}

// Proc is a stdio server started by the probe.
type Proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout Tail
	stderr Tail
	opts   StdioOptions

	mu       sync.Mutex
	queue    []Line
	queued   int
	dropped  int
	eof      bool
	notify   chan struct{} // closed and replaced whenever queue or eof changes
	exited   chan struct{}
	waitErr  error
	closed   bool
	writeMu  sync.Mutex
	started  time.Time
	readDone chan struct{}
}

// StartStdio starts the server in its own process group. ctx bounds only
// the start itself; the process lives until Close.
func StartStdio(ctx context.Context, opts StdioOptions) (*Proc, error) {
	if len(opts.Command) == 0 {
		return nil, errors.New("start stdio server: empty command")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start stdio server: %w", err)
	}
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultMaxLine
	}
	if opts.MaxQueued <= 0 {
		opts.MaxQueued = DefaultMaxQueued
	}
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	cmd.Dir = opts.Dir
	cmd.Env = append(os.Environ(), opts.Env...)
	proc.SetGroup(cmd)
	p := &Proc{cmd: cmd, opts: opts, notify: make(chan struct{}), exited: make(chan struct{}), readDone: make(chan struct{})}
	p.stdout.Max, p.stderr.Max = opts.TailBytes, opts.TailBytes
	cmd.Stderr = &p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start stdio server: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start stdio server: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start stdio server %q: %w", opts.Command[0], err)
	}
	p.stdin = stdin
	p.started = time.Now()
	go p.read(stdout)
	go func() {
		<-p.readDone
		err := cmd.Wait()
		p.mu.Lock()
		p.waitErr = err
		p.mu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

// read splits stdout into lines. It never blocks on the consumer, so the
// server is never stalled by a slow check.
func (p *Proc) read(r io.Reader) {
	defer close(p.readDone)
	lr := lines.New(io.TeeReader(r, &p.stdout), p.opts.MaxLine, p.opts.MaxLine)
	for {
		line, truncated, err := readLine(lr)
		if len(line) > 0 || (err == nil) {
			p.push(Line{Data: line, Truncated: truncated, At: time.Now()})
		}
		if err != nil {
			p.mu.Lock()
			p.eof = true
			p.wake()
			p.mu.Unlock()
			return
		}
	}
}

// readLine reads up to the next '\n', keeping at most the reader's bound:
// an over-long line comes back cut to it, marked truncated. A trailing
// '\r' is kept: it is part of what the server wrote. The line is the
// caller's to keep.
func readLine(lr *lines.Reader) (line []byte, truncated bool, err error) {
	b, err := lr.Next()
	switch {
	case errors.Is(err, lines.ErrTooLong):
		return bytes.Clone(lr.Head), true, nil
	case lr.Size > 0:
		// An over-long line the end of the stream cut short.
		return bytes.Clone(lr.Head), true, err
	}
	if err == nil {
		b = bytes.TrimSuffix(b, []byte("\n"))
	}
	return bytes.Clone(b), false, err
}

func (p *Proc) push(l Line) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.queued+len(l.Data) > p.opts.MaxQueued {
		p.dropped++
		return
	}
	p.queue = append(p.queue, l)
	p.queued += len(l.Data)
	p.wake()
}

// wake tells waiters something changed; p.mu must be held.
func (p *Proc) wake() {
	close(p.notify)
	p.notify = make(chan struct{})
}

// Next returns the next stdout line, waiting at most timeout. It returns
// ErrTimeout when nothing arrived in time and ErrEOF once stdout is closed
// and every line has been taken.
func (p *Proc) Next(timeout time.Duration) (Line, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		if len(p.queue) > 0 {
			l := p.queue[0]
			p.queue[0] = Line{}
			p.queue = p.queue[1:]
			p.queued -= len(l.Data)
			p.mu.Unlock()
			return l, nil
		}
		if p.eof {
			p.mu.Unlock()
			return Line{}, ErrEOF
		}
		wait := p.notify
		p.mu.Unlock()
		select {
		case <-wait:
		case <-deadline.C:
			return Line{}, ErrTimeout
		}
	}
}

// Write writes b to the server's stdin exactly as given, waiting at most
// timeout: a server that stops reading fills the pipe and would otherwise
// block the probe forever.
func (p *Proc) Write(b []byte, timeout time.Duration) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(b)
		done <- err
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("write to server stdin: %w", err)
		}
		return nil
	case <-t.C:
		// The writer goroutine ends when Close kills the process and the
		// pipe breaks.
		return fmt.Errorf("write to server stdin: %w", ErrTimeout)
	}
}

// WriteLine writes b followed by a newline, as the stdio transport frames
// messages.
func (p *Proc) WriteLine(b []byte, timeout time.Duration) error {
	buf := make([]byte, 0, len(b)+1)
	return p.Write(append(append(buf, b...), '\n'), timeout)
}

// Exited is closed once the process has exited and its stdout is drained.
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// ExitError returns the process's exit error once it exited (nil for a
// clean exit) and whether it has exited.
func (p *Proc) ExitError() (error, bool) {
	select {
	case <-p.exited:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.waitErr, true
	default:
		return nil, false
	}
}

// Stderr returns the kept tail of what the server wrote to stderr.
func (p *Proc) Stderr() string { return p.stderr.String() }

// Stdout returns the kept tail of everything the server wrote to stdout.
func (p *Proc) Stdout() string { return p.stdout.String() }

// DroppedLines counts stdout lines dropped because MaxQueued was reached.
func (p *Proc) DroppedLines() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropped
}

// PID is the server's process id, which is also its process group id.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// Close stops the server: it closes stdin and waits briefly, then signals
// the whole process group with SIGTERM, then SIGKILL, so no child the
// server started survives. It reports whether the server had already
// exited before Close began, and with what error.
func (p *Proc) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	_ = p.stdin.Close()
	// StopGroup also kills what is left of the group: the server may be
	// gone while a grandchild it started still holds the stdout pipe.
	if !proc.StopGroupAfter(p.cmd.Process.Pid, p.waitFor, closeGrace, termGrace, 5*time.Second) {
		return fmt.Errorf("server process %d did not exit after SIGKILL", p.cmd.Process.Pid)
	}
	return nil
}

func (p *Proc) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}
