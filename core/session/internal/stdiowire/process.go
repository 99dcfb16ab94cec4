package stdiowire

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
	"github.com/mcptest/mcptest/internal/lines"
	"github.com/mcptest/mcptest/internal/proc"
)

// Shutdown and death-detection timings.
const (
	// ExitGrace is how long, once stdout ends or the process exits, the
	// wire waits for the other (and for the last stderr output) before
	// declaring the server dead.
	ExitGrace = 500 * time.Millisecond
	// closeGrace is how long Stop waits after closing stdin before
	// SIGTERM. Servers that act on the end of their input exit within a
	// few milliseconds (the Go and Python SDKs' do); those that do not (a
	// Node server whose event loop timers keep alive, as
	// server-everything's) would make every run wait the whole grace
	// before mcptest can exit, so it is short.
	closeGrace = 100 * time.Millisecond
	// termGrace is how long Stop waits after SIGTERM, which servers
	// handle to clean up, before SIGKILL.
	termGrace = 500 * time.Millisecond
	// drainGrace is how long Drain waits for the output pipes to end
	// once the process is gone.
	drainGrace = time.Second
	// killWait is how long Stop waits for the process to be reaped after
	// SIGKILL.
	killWait = 5 * time.Second
	// stderrErrorLines is how many stderr lines an error carries.
	stderrErrorLines = 20
)

// Config describes the process to start. Its zero values have been
// filled in by the caller.
type Config struct {
	// Name identifies the server in errors.
	Name string
	// Command is the program and its arguments.
	Command []string
	// Env holds variables added to os.Environ(); they override inherited
	// variables of the same name.
	Env map[string]string
	// Dir is the working directory; empty means mcptest's own.
	Dir string
	// StderrLimit is how many bytes of stderr are kept.
	StderrLimit int
	// MaxMessageBytes bounds one line of stdout.
	MaxMessageBytes int
}

// Process is a server process spoken to over its stdin and stdout: the
// wire.Wire of a stdio session.
type Process struct {
	name   string
	sink   wire.Sink
	cmd    *exec.Cmd
	pid    int
	stdin  *stdinWriter
	stdout *os.File
	errOut *os.File
	stderr *proc.Tail
	max    int // MaxMessageBytes
	// watchdog is the write end of the watchdog's stdin (proc.StartWatchdog),
	// or nil.
	watchdog *os.File

	exited     chan struct{} // closed when the process has been reaped
	waitErr    error         // cmd.Wait's result, readable after exited
	stdoutDone chan struct{}
	stderrDone chan struct{}
}

// Start starts the process cfg describes in its own process group, with a
// watchdog that kills the group if mcptest dies, and drains its stderr.
// Nothing is read from stdout until Serve: everything the server writes
// goes to sink from then on.
func Start(cfg Config, sink wire.Sink) (*Process, error) {
	var files []*os.File // every pipe end, closed on failure
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	fail := func(err error) (*Process, error) {
		for _, f := range files {
			_ = f.Close()
		}
		return nil, fmt.Errorf("start server %q: %w", cfg.Name, err)
	}
	inR, inW, err := pipe()
	if err != nil {
		return fail(err)
	}
	outR, outW, err := pipe()
	if err != nil {
		return fail(err)
	}
	errR, errW, err := pipe()
	if err != nil {
		return fail(err)
	}

	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Dir
	cmd.Env = environ(os.Environ(), cfg.Env)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	proc.SetGroup(cmd)
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	// The child has its own copies now.
	_ = inR.Close()
	_ = outW.Close()
	_ = errW.Close()
	watchdog := proc.StartWatchdog(cmd.Process.Pid)

	p := &Process{
		name:       cfg.Name,
		sink:       sink,
		cmd:        cmd,
		pid:        cmd.Process.Pid,
		stdin:      newStdinWriter(inW),
		stdout:     outR,
		errOut:     errR,
		stderr:     proc.NewTail(cfg.StderrLimit),
		max:        cfg.MaxMessageBytes,
		watchdog:   watchdog,
		exited:     make(chan struct{}),
		stdoutDone: make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	go drainTail(p.stderr, errR, p.stderrDone)
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Serve starts reading stdout, and watching for the server's end. The
// session's client must be ready for messages: the sink's routing blocks
// until it reads them.
func (p *Process) Serve() {
	go p.readStdout(lines.New(p.stdout, p.max, wire.FrameLimit))
	go p.monitor()
}

// environ returns os-style KEY=VALUE pairs for Env, sorted for determinism.
func environ(base []string, env map[string]string) []string {
	out := slices.Clone(base)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, k+"="+env[k])
	}
	return out
}

// PID returns the server's process id, which is also its process group id
// on Unix.
func (p *Process) PID() int { return p.pid }

// StderrTail returns the last n lines (n <= 0: all that is kept) the
// server wrote to stderr, as written.
func (p *Process) StderrTail(n int) string { return p.stderr.Lines(n) }

// Exited reports whether the process has ended and, if so, the result of
// waiting for it (nil for exit status 0, an *exec.ExitError otherwise).
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.exited:
		return true, p.waitErr
	default:
		return false, nil
	}
}

// Send writes msg to the server's stdin. Failures of the session's own
// calls are classified; other writers (mcp-go, cancellations) get the raw
// error.
func (p *Process) Send(ctx context.Context, msg []byte, c wire.Call) error {
	err := p.stdin.writeFrame(ctx, msg)
	if err == nil || c == nil {
		return err
	}
	return p.writeError(ctx, err, c.Started())
}

// writeError classifies a failed request write.
func (p *Process) writeError(ctx context.Context, err error, start time.Time) error {
	if broken := p.stdin.brokenErr(); broken != nil {
		// Half a frame is on the server's stdin: nothing sent from now on
		// could be understood, so every call fails now.
		p.sink.Die(broken)
	}
	if errors.Is(err, errStdinStalled) {
		p.sink.Die(err)
		return p.sink.DeathError()
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return wire.CtxError(ctx, time.Since(start))
	}
	// Most likely a broken pipe: the server is gone. Give the monitor a
	// moment to collect the exit status and stderr.
	if deadErr := p.sink.AwaitDeath(2 * ExitGrace); deadErr != nil {
		return deadErr
	}
	return err
}

// monitor declares the session dead once the server exits or closes stdout,
// after giving the rest of its output a moment to arrive.
func (p *Process) monitor() {
	select {
	case <-p.stdoutDone:
	case <-p.exited:
	}
	deadline := time.Now().Add(ExitGrace)
	wire.WaitUntil(p.stdoutDone, deadline)
	wire.WaitUntil(p.exited, deadline)
	wire.WaitUntil(p.stderrDone, deadline)
	p.sink.Die(p.exitError())
}

// exitError describes the server's end as a *ServerExitError.
func (p *Process) exitError() error {
	e := &ServerExitError{
		Server:      p.name,
		Status:      statusRunning,
		ExitCode:    -1,
		StderrTail:  p.stderr.Lines(stderrErrorLines),
		StdoutNoise: p.sink.Noise(),
	}
	select {
	case <-p.exited:
		if st := p.cmd.ProcessState; st != nil {
			e.Status, e.ExitCode = st.String(), st.ExitCode()
		} else if p.waitErr != nil {
			e.Status = p.waitErr.Error()
		}
	default:
	}
	return e
}

// Detail renders what the server printed, for errors that are not a
// ServerExitError: "; non-JSON output on stdout: ...; stderr tail: ...".
func (p *Process) Detail() string {
	var b strings.Builder
	if noise := p.sink.Noise(); noise != "" {
		b.WriteString("; non-JSON output on stdout:\n")
		wire.WriteIndented(&b, noise)
	}
	if tail := p.stderr.Lines(stderrErrorLines); tail != "" {
		b.WriteString("; stderr tail:\n")
		wire.WriteIndented(&b, tail)
	}
	return b.String()
}

// Stop closes the server's stdin, waits up to closeGrace for it to exit,
// sends SIGTERM to its process group, waits up to termGrace, then sends
// SIGKILL and reaps it; finally it kills whatever is left in the group.
func (p *Process) Stop() error {
	_ = p.stdin.Close()
	var err error
	// Children the server left in its group go too, and the watchdog.
	if !proc.StopGroupAfter(p.pid, p.waitExit, closeGrace, termGrace, killWait) {
		err = fmt.Errorf("stop server %q: pid %d still running %s after SIGKILL", p.name, p.pid, killWait)
	}
	if p.watchdog != nil {
		_ = p.watchdog.Close()
	}
	return err
}

// Drain stops reading the server's output. A grandchild outside the group
// may still hold the pipes open: stop reading rather than wait for it.
func (p *Process) Drain() {
	wire.WaitUntil(p.stdoutDone, time.Now().Add(drainGrace))
	_ = p.stdout.Close()
	wire.WaitUntil(p.stderrDone, time.Now().Add(drainGrace))
	_ = p.errOut.Close()
}

// waitExit waits up to d for the process to be reaped.
func (p *Process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}
