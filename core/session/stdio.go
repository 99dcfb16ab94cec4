package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mcptest/mcptest/internal/lines"
	"github.com/mcptest/mcptest/internal/proc"
)

// stdioTransport is a server process spoken to over its stdin and stdout.
type stdioTransport struct {
	s      *Session
	cmd    *exec.Cmd
	pid    int
	stdin  *stdinWriter
	stdout *os.File
	errOut *os.File
	stderr *proc.Tail
	// watchdog is the write end of the watchdog's stdin (proc.StartWatchdog),
	// or nil.
	watchdog *os.File

	exited     chan struct{} // closed when the process has been reaped
	waitErr    error         // cmd.Wait's result, readable after exited
	stdoutDone chan struct{}
	stderrDone chan struct{}
}

// StartStdio starts the server described by cfg, opens the conversation at
// the pinned protocol revision (initialize, or server/discover for the
// modern era) and returns the ready session.
// ctx bounds only the start (together with cfg.InitTimeout), not the
// session's life. On failure the process is stopped and the error says why:
// it wraps ErrServerExited (with the stderr tail) if the server died,
// ErrTimeout if it did not answer in time.
func StartStdio(ctx context.Context, cfg StdioConfig) (*Session, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s, err := spawn(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.handshake(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// spawn starts the process and the goroutines that serve it.
func spawn(cfg StdioConfig) (*Session, error) {
	var files []*os.File // every pipe end, closed on failure
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	fail := func(err error) (*Session, error) {
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

	s := newSession(cfg.options(), TransportStdio)
	if len(cfg.Secrets) > 0 {
		s.redact = newRedactor(cfg.Secrets, nil)
	}
	p := &stdioTransport{
		s:          s,
		cmd:        cmd,
		pid:        cmd.Process.Pid,
		stdin:      newStdinWriter(inW),
		stdout:     outR,
		errOut:     errR,
		stderr:     proc.NewTail(cfg.StderrLimit),
		watchdog:   watchdog,
		exited:     make(chan struct{}),
		stdoutDone: make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	s.t, s.proc = p, p

	go drainTail(p.stderr, errR, p.stderrDone)
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()

	if err := s.startClient(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("start server %q: mcp client: %w", cfg.Name, err)
	}
	go p.readStdout(lines.New(outR, cfg.MaxMessageBytes, FrameLimit))
	go p.monitor()
	return s, nil
}

// send writes msg to the server's stdin. Failures of our own calls are
// classified; other writers (mcp-go, cancellations) get the raw error.
func (p *stdioTransport) send(ctx context.Context, msg []byte, c *call) error {
	err := p.stdin.writeFrame(ctx, msg)
	if err == nil || c == nil {
		return err
	}
	return p.writeError(ctx, err, c.start)
}

// writeError classifies a failed request write.
func (p *stdioTransport) writeError(ctx context.Context, err error, start time.Time) error {
	s := p.s
	if broken := p.stdin.brokenErr(); broken != nil {
		// Half a frame is on the server's stdin: nothing sent from now on
		// could be understood, so every call fails now.
		s.die(broken)
	}
	if errors.Is(err, errStdinStalled) {
		s.die(err)
		return s.deathError()
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return ctxError(ctx, time.Since(start))
	}
	// Most likely a broken pipe: the server is gone. Give the monitor a
	// moment to collect the exit status and stderr.
	if deadErr := s.awaitDeath(2 * exitGrace); deadErr != nil {
		return deadErr
	}
	return err
}

// monitor declares the session dead once the server exits or closes stdout,
// after giving the rest of its output a moment to arrive.
func (p *stdioTransport) monitor() {
	select {
	case <-p.stdoutDone:
	case <-p.exited:
	}
	deadline := time.Now().Add(exitGrace)
	waitUntil(p.stdoutDone, deadline)
	waitUntil(p.exited, deadline)
	waitUntil(p.stderrDone, deadline)
	p.s.die(p.exitError())
}

// exitError describes the server's end as a *ServerExitError.
func (p *stdioTransport) exitError() error {
	e := &ServerExitError{
		Server:      p.s.opts.name,
		Status:      statusRunning,
		ExitCode:    -1,
		StderrTail:  p.stderr.Lines(stderrErrorLines),
		StdoutNoise: p.s.noise.String(),
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

// detail renders what the server printed, for errors that are not a
// ServerExitError: "; non-JSON output on stdout: ...; stderr tail: ...".
func (p *stdioTransport) detail() string {
	var b strings.Builder
	if noise := p.s.noise.String(); noise != "" {
		b.WriteString("; non-JSON output on stdout:\n")
		writeIndented(&b, noise)
	}
	if tail := p.stderr.Lines(stderrErrorLines); tail != "" {
		b.WriteString("; stderr tail:\n")
		writeIndented(&b, tail)
	}
	return b.String()
}

// stop closes the server's stdin, waits up to closeGrace for it to exit,
// sends SIGTERM to its process group, waits again, then sends SIGKILL and
// reaps it; finally it kills whatever is left in the group.
func (p *stdioTransport) stop() error {
	_ = p.stdin.Close()
	var err error
	// Children the server left in its group go too, and the watchdog.
	if !proc.StopGroup(p.pid, p.waitExit, closeGrace, killWait) {
		err = fmt.Errorf("stop server %q: pid %d still running %s after SIGKILL", p.s.opts.name, p.pid, killWait)
	}
	if p.watchdog != nil {
		_ = p.watchdog.Close()
	}
	return err
}

// drain stops reading the server's output. A grandchild outside the group
// may still hold the pipes open: stop reading rather than wait for it.
func (p *stdioTransport) drain() {
	waitUntil(p.stdoutDone, time.Now().Add(closeGrace))
	_ = p.stdout.Close()
	waitUntil(p.stderrDone, time.Now().Add(closeGrace))
	_ = p.errOut.Close()
}

// waitExit waits up to d for the process to be reaped.
func (p *stdioTransport) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}
