package compliance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// errNoResponse means the server sent nothing answering a request.
var errNoResponse = errors.New("no response")

// errWaitTimedOut means a wait for an answer ran out of time, as opposed
// to the server exiting or the HTTP reply carrying no answer.
var errWaitTimedOut = fmt.Errorf("%w in time", errNoResponse)

// Session is one connection to the server: a process of its own over
// stdio, or a sequence of POSTs sharing one session id over HTTP. It reads
// everything the server sends into an inbox, answers the server's pings,
// refuses its other requests, and records every frame as evidence.
type Session struct {
	env *Env
	rec *recorder
	// rev is the revision spoken; it is what initialize asked for until
	// the server answers, then what the server chose.
	rev string
	// headerRev is sent as MCP-Protocol-Version once negotiated (HTTP).
	headerRev string
	modern    bool

	proc *probe.Proc
	// timeout is the run's --timeout, for the pump's answers to server
	// requests: env changes when a later check takes the session over,
	// and the pump must not read it.
	timeout time.Duration
	// started frees the run's start slot the session holds (see
	// sessionPool.acquire); safe to call more than once.
	started   func()
	http      *probe.HTTPClient
	sessionID string
	pumpDone  chan struct{}

	mu       sync.Mutex
	nextID   int
	received []*probe.Message
	taken    map[*probe.Message]bool
	nonJSON  []probe.Line
	requests []*probe.Message
	sent     map[string]bool
	// abandoned are the ids of requests the server passed over without
	// an answer (see settle); answers to them stay out of the inbox.
	abandoned map[string]bool
	notify    chan struct{}
	closed    bool
	crash     string
	// lastStatus is the status of the last POST (HTTP).
	lastStatus int
	// writeFailed is set once a write to the server's stdin failed, as
	// it does when the server has exited.
	writeFailed bool
	// initialized is set once connect completed the handshake, which
	// makes a stdio session fit for reuse by a later check.
	initialized bool
	bg          sync.WaitGroup
}

// Reply is the answer to one request.
type Reply struct {
	// Msg is the JSON-RPC response.
	Msg *probe.Message
	// HTTP is the HTTP response that carried it (HTTP transport only).
	HTTP *probe.HTTPResponse
}

// newSession starts a session. started, when set, is called once the
// server has shown it is up (its first stdout line, the answer to
// initialize) or the session ends, whichever comes first.
func (e *Env) newSession(ctx context.Context, started func()) (*Session, error) {
	if started == nil {
		started = func() {}
	}
	s := &Session{env: e, rec: e.rec, rev: e.Revision, modern: probe.IsModern(e.Revision), timeout: e.opts.Timeout,
		taken: map[*probe.Message]bool{}, sent: map[string]bool{}, notify: make(chan struct{}), started: started}
	if s.modern {
		s.headerRev = e.Revision
	}
	if e.Transport == HTTP {
		s.http = e.httpClient()
	} else {
		p, err := probe.StartStdio(ctx, probe.StdioOptions{Command: e.target.Command, Env: e.target.Env, Dir: e.target.Dir})
		if err != nil {
			return nil, err
		}
		s.proc = p
		s.pumpDone = make(chan struct{})
		go s.pump()
	}
	e.mu.Lock()
	e.sessions = append(e.sessions, s)
	e.mu.Unlock()
	return s, nil
}

// recorder returns where the session's frames go; a reused stdio
// session moves to the next check's recorder while its pump runs.
func (s *Session) recorder() *recorder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rec
}

// newID returns a fresh integer request id.
func (s *Session) newID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	return s.nextID
}

// withMeta adds the modern era's per-request _meta to params.
func (s *Session) withMeta(params map[string]any) map[string]any {
	if !s.modern {
		return params
	}
	return probe.WithMeta(params, probe.ModernMeta(s.rev, nil, s.env.opts.ClientVersion))
}

// Call sends a well-formed request and waits for its response.
func (s *Session) Call(ctx context.Context, method string, params map[string]any) (*Reply, error) {
	id := s.newID()
	p := s.withMeta(params)
	var anyParams any
	if p != nil {
		anyParams = p
	}
	return s.Exchange(ctx, probe.Request(id, method, anyParams), id, method, p)
}

// Exchange sends body as it is and waits for the response whose id is id.
// method and params only shape the HTTP headers; they may be empty.
func (s *Session) Exchange(ctx context.Context, body []byte, id any, method string, params map[string]any) (*Reply, error) {
	idJSON := mustMarshal(id)
	match := func(m *probe.Message) bool { return m.IsResponse() && bytes.Equal(compactJSON(m.ID), idJSON) }
	hr, err := s.Send(ctx, body, method, params, match)
	if err != nil {
		return &Reply{HTTP: hr}, err
	}
	m, err := s.Wait(ctx, s.env.opts.Timeout, match)
	// Answered or not, the server has had its time to start: a server
	// that never answers must not hold a start slot for the whole check.
	s.markStarted()
	return &Reply{Msg: m, HTTP: hr}, err
}

// Send writes body as it is: a line on stdin, or a POST. Over HTTP the
// response is read until until accepts a message (nil reads it all) and
// is returned; over stdio the result is nil.
func (s *Session) Send(ctx context.Context, body []byte, method string, params map[string]any, until func(*probe.Message) bool) (*probe.HTTPResponse, error) {
	s.noteSent(body)
	if s.proc != nil {
		s.recorder().add("send", body)
		err := s.proc.WriteLine(body, s.env.opts.Timeout)
		if err != nil {
			s.mu.Lock()
			s.writeFailed = true
			s.mu.Unlock()
		}
		return nil, err
	}
	return s.post(ctx, body, method, params, until)
}

// noteSent remembers the ids of what body sends with an id (requests,
// and the malformed ones without a method too), so responses to anything
// else can be told apart, and a late answer to one of them can be set
// aside (see settle).
func (s *Session) noteSent(body []byte) {
	var items []json.RawMessage
	if json.Unmarshal(body, &items) != nil {
		items = []json.RawMessage{body}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range items {
		if m, err := probe.Parse(it); err == nil && m.ID != nil && !m.IsResponse() {
			s.sent[string(compactJSON(m.ID))] = true
		}
	}
}

// sentID reports whether a request with this id was sent on the session.
func (s *Session) sentID(id json.RawMessage) bool {
	if id == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent[string(compactJSON(id))]
}

// Notify sends a notification. Over HTTP it returns the POST's response.
func (s *Session) Notify(ctx context.Context, method string, params map[string]any) (*probe.HTTPResponse, error) {
	var p any
	if params != nil {
		p = params
	}
	return s.Send(ctx, probe.Notification(method, p), method, params, nil)
}

// Wait returns the first message not yet taken that match accepts,
// waiting at most d. It returns errNoResponse when none came, and an
// error saying so when the server exited.
func (s *Session) Wait(ctx context.Context, d time.Duration, match func(*probe.Message) bool) (*probe.Message, error) {
	if s.http != nil {
		// Every POST is read to its end before Send returns, so what is not
		// in the inbox now is not coming.
		s.mu.Lock()
		for _, m := range s.received {
			if !s.taken[m] && match(m) {
				s.taken[m] = true
				s.mu.Unlock()
				return m, nil
			}
		}
		status := s.lastStatus
		s.mu.Unlock()
		return nil, fmt.Errorf("%w: the HTTP reply (status %d) carried none", errNoResponse, status)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		s.mu.Lock()
		for _, m := range s.received {
			if !s.taken[m] && match(m) {
				s.taken[m] = true
				s.mu.Unlock()
				return m, nil
			}
		}
		wait := s.notify
		s.mu.Unlock()
		// pumpDone closes once stdout is drained and every line filed, so
		// after it nothing more can arrive; nil (HTTP) never fires.
		select {
		case <-s.pumpDone:
			s.mu.Lock()
			for _, m := range s.received {
				if !s.taken[m] && match(m) {
					s.taken[m] = true
					s.mu.Unlock()
					return m, nil
				}
			}
			s.mu.Unlock()
			what := "closed its stdout"
			if err, done := s.proc.ExitError(); done {
				what = "exited (" + exitText(err) + ")"
			}
			return nil, fmt.Errorf("%w: the server %s", errNoResponse, what)
		default:
		}
		select {
		case <-wait:
		case <-s.pumpDone:
		case <-t.C:
			return nil, fmt.Errorf("%w (waited %s)", errWaitTimedOut, d)
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w", errNoResponse, ctx.Err())
		}
	}
}

// Quiet waits for d (or until ctx ends) so stray messages can arrive.
// Over HTTP nothing can arrive unasked: every POST's reply is read whole
// before Send returns and the session opens no GET stream, so Quiet only
// waits for its answers to the server's requests to be posted.
func (s *Session) Quiet(ctx context.Context, d time.Duration) {
	if s.http != nil {
		done := make(chan struct{})
		go func() { s.bg.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
		}
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// Received returns every message the server sent, in order.
func (s *Session) Received() []*probe.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*probe.Message(nil), s.received...)
}

// NonJSON returns the stdout lines that were not JSON messages.
func (s *Session) NonJSON() []probe.Line {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]probe.Line(nil), s.nonJSON...)
}

// ServerRequests returns the requests the server sent.
func (s *Session) ServerRequests() []*probe.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*probe.Message(nil), s.requests...)
}

// SessionID is the Mcp-Session-Id the server assigned, if any.
func (s *Session) SessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionID
}

// Revision is the revision the session speaks.
func (s *Session) Revision() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rev
}

// Initialize performs the legacy handshake asking for rev (the run's
// revision when ""), and sends notifications/initialized unless skip is
// set. The reply is returned even when it is an error response.
func (s *Session) Initialize(ctx context.Context, rev string, skipInitialized bool) (*Reply, error) {
	if rev == "" {
		rev = s.rev
	}
	id := s.newID()
	params := probe.InitializeParams(rev, nil, s.env.opts.ClientVersion)
	r, err := s.Exchange(ctx, probe.Request(id, "initialize", params), id, "initialize", params)
	s.markStarted()
	if err != nil {
		return r, fmt.Errorf("initialize: %w", err)
	}
	if r.Msg.Result == nil {
		return r, nil
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(r.Msg.Result, &res)
	s.mu.Lock()
	if res.ProtocolVersion != "" {
		s.rev = res.ProtocolVersion
	}
	// The revision header exists from 2025-06-18; older servers may not
	// expect it, and a client sends the negotiated one.
	if s.rev >= probe.Rev20250618 {
		s.headerRev = s.rev
	}
	if r.HTTP != nil {
		s.sessionID = r.HTTP.Header.Get(probe.HeaderSessionID)
	}
	s.mu.Unlock()
	if !skipInitialized {
		if err := s.finishHandshake(ctx); err != nil {
			return r, err
		}
	}
	return r, nil
}

// finishHandshake sends notifications/initialized. A session whose
// server chose the run's revision is then as good as one connect made,
// so it may serve a later check (see poolRole).
func (s *Session) finishHandshake(ctx context.Context) error {
	if _, err := s.Notify(ctx, "notifications/initialized", nil); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	s.mu.Lock()
	s.initialized = s.rev == s.env.Revision
	s.mu.Unlock()
	return nil
}

// noteCrash remembers whether a stdio server exited on its own before the
// session was closed.
func (s *Session) noteCrash() {
	if s.proc == nil {
		return
	}
	s.mu.Lock()
	gone := s.writeFailed
	s.mu.Unlock()
	select {
	case <-s.pumpDone:
		gone = true
	default:
	}
	if gone {
		// stdout is closed or stdin refused a write, so the process has
		// exited or is exiting; give the exit a moment to be observed
		// rather than miss the crash.
		t := time.NewTimer(500 * time.Millisecond)
		select {
		case <-s.proc.Exited():
		case <-t.C:
		}
		t.Stop()
	}
	if err, done := s.proc.ExitError(); done {
		s.mu.Lock()
		s.crash = exitText(err)
		s.mu.Unlock()
	}
}

// crashed says how the server exited on its own, or "".
func (s *Session) crashed() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.crash
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// close ends the session: the process group is stopped, or the HTTP
// session is deleted so the server can free it. Whether a stdio server
// crashed is settled before close returns; stopping its process may go
// on in the run's background (see reaper), off the check's time.
func (s *Session) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.markStarted()
	s.noteCrash()
	if s.crashed() != "" {
		// Already gone: what it wrote last is evidence, and draining it
		// takes no time.
		s.release()
		return
	}
	s.env.opts.reaper.release(s)
}

// release stops a closed session's process and waits until its output is
// drained, or deletes its HTTP session.
func (s *Session) release() {
	if s.proc != nil {
		_ = s.proc.Close()
		<-s.pumpDone
		return
	}
	s.mu.Lock()
	id := s.sessionID
	s.mu.Unlock()
	s.bg.Wait()
	if id != "" {
		ctx, cancel := context.WithTimeout(context.Background(), s.env.opts.Timeout)
		defer cancel()
		h := http.Header{}
		h.Set(probe.HeaderSessionID, id)
		if s.headerRev != "" {
			h.Set(probe.HeaderProtocolVersion, s.headerRev)
		}
		// Deleting is a courtesy; a server that refuses (405) is fine.
		_, _ = s.http.Do(ctx, probe.HTTPRequest{Method: http.MethodDelete, Header: h})
	}
}

// stderr returns the tail of a stdio server's stderr.
func (s *Session) stderr() string {
	if s.proc == nil {
		return ""
	}
	return s.proc.Stderr()
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("compliance: encode %T: %v", v, err))
	}
	return b
}

func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return bytes.TrimSpace(raw)
	}
	return buf.Bytes()
}

// markStarted frees the start slot the session holds, if any.
func (s *Session) markStarted() {
	if s.started != nil {
		s.started()
	}
}
