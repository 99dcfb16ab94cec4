// Package session runs MCP client sessions against servers under test.
//
// A Session owns one server process started over stdio (StartStdio). It is
// built on mcp-go: the mcp-go client performs the initialize handshake at a
// pinned protocol revision (never an auto-probe) and serves notifications and
// server-to-client requests, while tool calls are written and correlated by
// the session itself so that results are the server's exact bytes and every
// frame can be recorded.
//
// A call has three distinct outcomes: a result (which may carry isError:
// true), a JSON-RPC error (Outcome.RPCError), or a transport failure (the
// error return: ErrServerExited, ErrTimeout, ErrClosed, ErrBadResponse).
package session

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// callIDBase is where the session's own request ids start. The mcp-go client
// numbers its requests (initialize) from 1, so the ranges never collide.
const callIDBase = 1_000_000

// clientName is sent as clientInfo.name in initialize.
const clientName = "mcptest"

// Session is a connection to one MCP server process. Its methods are safe for
// concurrent use; calls on one session run concurrently, as JSON-RPC allows.
// Close must be called to stop the server.
type Session struct {
	cfg    StdioConfig
	cmd    *exec.Cmd
	pid    int
	stdin  *stdinWriter
	stdout *os.File
	errOut *os.File
	stderr *tailBuffer
	noise  noiseLog

	client   *client.Client
	toClient *io.PipeWriter // lines for mcp-go's transport
	fromTee  *io.PipeReader // mcp-go's end of toClient
	ctx      context.Context
	cancel   context.CancelFunc

	nextID atomic.Int64

	mu      sync.Mutex
	pending map[string]*call
	deadErr error     // why the session can carry no more calls
	deadAt  time.Time // when deadErr was set
	closed  bool

	dead       chan struct{} // closed when deadErr is set
	exited     chan struct{} // closed when the process has been reaped
	waitErr    error         // cmd.Wait's result, readable after exited
	stdoutDone chan struct{}
	stderrDone chan struct{}
	bg         sync.WaitGroup // background writes (cancellations)

	closeOnce sync.Once
	closeErr  error

	protocolVersion string
	serverName      string
	serverVersion   string
}

// StartStdio starts the server described by cfg, performs the initialize
// handshake at the pinned protocol revision and returns the ready session.
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
	if err := s.initialize(ctx); err != nil {
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
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	// The child has its own copies now.
	_ = inR.Close()
	_ = outW.Close()
	_ = errW.Close()

	s := &Session{
		cfg:        cfg,
		cmd:        cmd,
		pid:        cmd.Process.Pid,
		stdin:      newStdinWriter(inW),
		stdout:     outR,
		errOut:     errR,
		stderr:     newTailBuffer(cfg.StderrLimit),
		pending:    make(map[string]*call),
		dead:       make(chan struct{}),
		exited:     make(chan struct{}),
		stdoutDone: make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	s.nextID.Store(callIDBase)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.fromTee, s.toClient = io.Pipe()

	go s.stderr.drain(errR, s.stderrDone)
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()

	// The client's transport reads the lines readStdout passes on and writes
	// through the same stdin as our calls. Start must come before the router
	// runs, since router writes block until the transport reads them.
	tr := transport.NewIO(s.fromTee, s.stdin, nil)
	s.client = client.NewClient(tr, client.WithProtocolVersion(cfg.ProtocolVersion))
	if err := s.client.Start(s.ctx); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("start server %q: mcp client: %w", cfg.Name, err)
	}
	go s.readStdout(newLineReader(outR, cfg.MaxMessageBytes))
	go s.monitor()
	return s, nil
}

// initialize performs the initialize handshake through the mcp-go client.
func (s *Session) initialize(ctx context.Context) error {
	initCtx, cancel := context.WithTimeout(ctx, s.cfg.InitTimeout)
	defer cancel()
	start := time.Now()
	res, err := s.client.Initialize(initCtx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: s.cfg.ProtocolVersion,
		ClientInfo:      mcp.Implementation{Name: clientName, Version: s.cfg.ClientVersion},
	}})
	if err == nil {
		s.protocolVersion = res.ProtocolVersion
		s.serverName = res.ServerInfo.Name
		s.serverVersion = res.ServerInfo.Version
		return nil
	}
	prefix := fmt.Sprintf("initialize server %q (protocol %s)", s.cfg.Name, s.cfg.ProtocolVersion)
	if initCtx.Err() == nil {
		// Not a timeout: most likely the server died; wait for its status.
		if deadErr := s.awaitDeath(2 * exitGrace); deadErr != nil {
			return fmt.Errorf("%s: %w", prefix, deadErr)
		}
		return fmt.Errorf("%s: %w%s", prefix, err, s.outputSummary())
	}
	if deadErr := s.awaitDeath(0); deadErr != nil {
		return fmt.Errorf("%s: %w", prefix, deadErr)
	}
	if ctx.Err() != nil && initCtx.Err() != context.DeadlineExceeded {
		return fmt.Errorf("%s: %w", prefix, ctx.Err())
	}
	return fmt.Errorf("%s: %w: no response after %s%s", prefix, ErrTimeout,
		time.Since(start).Round(time.Millisecond), s.outputSummary())
}

// ProtocolVersion returns the protocol revision the server answered
// initialize with, which may differ from the one requested.
func (s *Session) ProtocolVersion() string { return s.protocolVersion }

// ServerInfo returns the name and version the server reported in initialize.
func (s *Session) ServerInfo() (name, version string) { return s.serverName, s.serverVersion }

// Name returns the session's name (StdioConfig.Name).
func (s *Session) Name() string { return s.cfg.Name }

// PID returns the server's process id, which is also its process group id
// on Unix.
func (s *Session) PID() int { return s.pid }

// StderrTail returns the last n lines (n <= 0: all that is kept) the server
// wrote to stderr, as written; pass them through Sanitize before printing.
func (s *Session) StderrTail(n int) string { return s.stderr.Tail(n) }

// Exited reports whether the server process has ended and, if so, the
// result of waiting for it (nil for exit status 0, an *exec.ExitError
// otherwise).
func (s *Session) Exited() (bool, error) {
	select {
	case <-s.exited:
		return true, s.waitErr
	default:
		return false, nil
	}
}
