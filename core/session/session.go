package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcptransport "github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcptest/mcptest/core/session/internal/httpwire"
	"github.com/mcptest/mcptest/core/session/internal/stdiowire"
	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// callIDBase is where the session's own request ids start. The mcp-go client
// numbers its requests (initialize) from 1, so the ranges never collide.
const callIDBase = 1_000_000

// clientName is sent as clientInfo.name in initialize.
const clientName = "mcptest"

// Transport names, as Session.Transport reports them; HTTPConfig.Transport
// accepts the two HTTP ones.
const (
	// TransportStdio is a child process spoken to over stdin and stdout.
	TransportStdio = "stdio"
	// TransportStreamable is Streamable HTTP (protocol 2025-03-26 and later).
	TransportStreamable = httpwire.Streamable
	// TransportSSE is the legacy HTTP+SSE transport (protocol 2024-11-05).
	TransportSSE = httpwire.SSE
	// TransportCassette is a recording replayed from a file
	// (core/cassette): no process, no network.
	TransportCassette = "cassette"
)

// options are the settings every transport shares.
type options struct {
	name            string
	protocolVersion string // the revision pinned in initialize
	clientVersion   string
	initTimeout     time.Duration
	initFrom        string // where initTimeout came from; "" for the default
	callTimeout     time.Duration
	maxMessageBytes int
	client          ClientOptions
}

// Session is a connection to one MCP server. Its methods are safe for
// concurrent use; calls on one session run concurrently, as JSON-RPC allows.
// Close must be called to release it (and, over stdio, stop the server).
type Session struct {
	opts   options
	kind   string // TransportStdio, TransportStreamable or TransportSSE
	t      wire.Wire
	proc   *stdiowire.Process // the process, for stdio sessions only
	redact *wire.Redactor     // secrets to scrub from frames; nil when there are none
	noise  noiseLog           // non-JSON lines the server wrote
	strays noiseLog           // responses to ids no request waits for

	client   *client.Client
	toClient *io.PipeWriter // lines for mcp-go's transport
	fromTee  *io.PipeReader // mcp-go's end of toClient
	ctx      context.Context
	cancel   context.CancelFunc

	nextID atomic.Int64

	mu      sync.Mutex
	pending map[string]*call
	// clientPending holds the ids of mcp-go's own requests (initialize)
	// still waiting for an answer, so the router can tell their answers
	// from stray ones (unmatched.go).
	clientPending map[string]struct{}
	deadErr       error     // why the session can carry no more calls
	deadAt        time.Time // when deadErr was set
	closed        bool
	initAbort     context.CancelCauseFunc // set while initialize runs

	dead chan struct{}  // closed when deadErr is set
	bg   sync.WaitGroup // background writes (cancellations)

	closeOnce sync.Once
	closeErr  error

	protocolVersion string
	serverName      string
	serverVersion   string
	sessionID       func() string // the HTTP session id, for SessionID

	// Modern era (modern.go): what server/discover said, the capabilities
	// every request declares (nil: none), and the hook that answers
	// input_required results (nil: such a result fails the call).
	discovery  *Discovery
	clientCaps json.RawMessage
	inputs     InputHandler

	feeds feeds // captures and the server requests answered (feeds.go)

	traffic ledger // what the client wrote (traffic.go)
}

// newSession makes a Session over t (which may be filled in later, before
// start) with its pending map, death signal and pipe to mcp-go.
func newSession(opts options, kind string) *Session {
	s := &Session{
		opts:          opts,
		kind:          kind,
		pending:       make(map[string]*call),
		clientPending: make(map[string]struct{}),
		dead:          make(chan struct{}),
	}
	s.nextID.Store(callIDBase)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.fromTee, s.toClient = io.Pipe()
	return s
}

// startClient starts the mcp-go client. Its transport reads the messages
// route passes on and writes through s.t like our calls. Start must come
// before any message is routed, since router writes block until the
// transport reads them.
func (s *Session) startClient() error {
	tr := mcptransport.NewIO(s.fromTee, clientWriter{s}, nil)
	s.client = client.NewClient(tr, client.WithProtocolVersion(s.opts.protocolVersion),
		client.WithClientCapabilities(s.opts.client.declared()))
	return s.client.Start(s.ctx)
}

// clientWriter is the mcp-go transport's output: each Write is one complete
// frame (mcp-go serialises them), sent through the session's transport.
type clientWriter struct{ s *Session }

// Write implements io.Writer.
func (w clientWriter) Write(p []byte) (int, error) {
	// Recorded before sending: the answer may arrive before send returns.
	id := w.s.expectClientAnswer(p)
	w.s.noteClientFrame(p)
	if err := w.s.t.Send(w.s.ctx, p, nil); err != nil {
		w.s.clientAnswered(id)
		if w.s.proc == nil {
			// mcp-go would bury our error in its own wrapping; during the
			// handshake, initialize reports it as it is.
			w.s.failInit(err)
		}
		return 0, err
	}
	return len(p), nil
}

// Close implements io.Closer. The session closes its transport itself,
// after mcp-go has stopped.
func (clientWriter) Close() error { return nil }

// initialize performs the initialize handshake through the mcp-go client.
func (s *Session) initialize(ctx context.Context) error {
	initCtx, cancel := context.WithTimeout(ctx, s.opts.initTimeout)
	defer cancel()
	// A transport that learns asynchronously that the handshake failed
	// (an SSE stream that ended without the answer) aborts it with the
	// reason rather than leave mcp-go waiting for the timeout.
	initCtx, abort := context.WithCancelCause(initCtx)
	defer abort(nil)
	s.mu.Lock()
	s.initAbort = abort
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.initAbort = nil
		s.mu.Unlock()
	}()

	start := time.Now()
	res, err := s.client.Initialize(initCtx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: s.opts.protocolVersion,
		ClientInfo:      mcp.Implementation{Name: clientName, Version: s.opts.clientVersion},
	}})
	if err == nil {
		s.protocolVersion = res.ProtocolVersion
		s.serverName = res.ServerInfo.Name
		s.serverVersion = res.ServerInfo.Version
		return nil
	}
	prefix := fmt.Sprintf("initialize server %q (protocol %s)", s.opts.name, s.opts.protocolVersion)
	if cause := context.Cause(initCtx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w", prefix, cause)
	}
	if initCtx.Err() == nil {
		if s.proc != nil {
			// Not a timeout: most likely the server died; wait for its status.
			if deadErr := s.awaitDeath(2 * stdiowire.ExitGrace); deadErr != nil {
				return fmt.Errorf("%s: %w", prefix, deadErr)
			}
		}
		return fmt.Errorf("%s: %w%s", prefix, err, s.t.Detail())
	}
	if deadErr := s.awaitDeath(0); deadErr != nil {
		return fmt.Errorf("%s: %w", prefix, deadErr)
	}
	if ctx.Err() != nil && initCtx.Err() != context.DeadlineExceeded {
		return fmt.Errorf("%s: %w", prefix, ctx.Err())
	}
	return fmt.Errorf("%s: %w: no response after %s%s%s", prefix, ErrTimeout,
		time.Since(start).Round(time.Millisecond), s.opts.startLimit(), s.t.Detail())
}

// failInit aborts a running initialize with err; it does nothing once the
// handshake is over.
func (s *Session) failInit(err error) {
	s.mu.Lock()
	abort := s.initAbort
	s.mu.Unlock()
	if abort != nil {
		abort(err)
	}
}

// ProtocolVersion returns the protocol revision the server answered
// initialize with, which may differ from the one requested; in the modern
// era, the pinned revision, which server/discover accepted.
func (s *Session) ProtocolVersion() string { return s.protocolVersion }

// ServerInfo returns the name and version the server reported in
// initialize (or server/discover).
func (s *Session) ServerInfo() (name, version string) { return s.serverName, s.serverVersion }

// Name returns the session's name (StdioConfig.Name or HTTPConfig.Name).
func (s *Session) Name() string { return s.opts.name }

// Transport returns how the session reaches its server: TransportStdio,
// TransportStreamable or TransportSSE.
func (s *Session) Transport() string { return s.kind }

// SessionID returns the session id the server assigned: Mcp-Session-Id over
// Streamable HTTP, the endpoint's sessionId over legacy SSE when it has
// one, and "" over stdio or when the server assigned none.
func (s *Session) SessionID() string {
	if s.sessionID == nil {
		return ""
	}
	return s.sessionID()
}

// PID returns the server's process id, which is also its process group id
// on Unix, or 0 for a URL server, which mcptest did not start.
func (s *Session) PID() int {
	if s.proc == nil {
		return 0
	}
	return s.proc.PID()
}

// StderrTail returns the last n lines (n <= 0: all that is kept) the server
// wrote to stderr, as written; pass them through Sanitize before printing.
// It is empty for a URL server.
func (s *Session) StderrTail(n int) string {
	if s.proc == nil {
		return ""
	}
	return s.proc.StderrTail(n)
}

// Exited reports whether the server process has ended and, if so, the
// result of waiting for it (nil for exit status 0, an *exec.ExitError
// otherwise). It is always false for a URL server, which has no process
// of ours; a URL session that can no longer carry calls fails them with
// the reason instead.
func (s *Session) Exited() (bool, error) {
	if s.proc == nil {
		return false, nil
	}
	return s.proc.Exited()
}

// ServerCapabilities returns the capabilities the server declared in
// initialize (or, in the modern era, in server/discover), as JSON, or nil.
func (s *Session) ServerCapabilities() json.RawMessage {
	if s.discovery != nil {
		return s.discovery.Capabilities
	}
	if s.client == nil {
		return nil
	}
	b, err := json.Marshal(s.client.GetServerCapabilities())
	if err != nil || string(b) == "null" {
		return nil
	}
	return b
}
