package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/mcptest/mcptest/core/probe"
)

// ServerInfo is what the server said about itself when the run began.
type ServerInfo struct {
	// ProtocolVersion is the revision the server chose.
	ProtocolVersion string
	Name, Version   string
	// Capabilities are the declared server capabilities, raw.
	Capabilities map[string]json.RawMessage
	// Result is the raw initialize (or server/discover) result.
	Result json.RawMessage
}

// Declares reports whether the server declared capability c.
func (i *ServerInfo) Declares(c Capability) bool {
	if i == nil {
		return false
	}
	v, ok := i.Capabilities[string(c)]
	return ok && string(v) != "null"
}

// capFlag reads a boolean flag inside a declared capability, such as
// resources.subscribe.
func (i *ServerInfo) capFlag(c Capability, flag string) bool {
	var m map[string]any
	if i == nil || json.Unmarshal(i.Capabilities[string(c)], &m) != nil {
		return false
	}
	b, _ := m[flag].(bool)
	return b
}

// Finding is one observation of a check: a sub-requirement met or not.
type Finding struct {
	// Name says what was probed, such as "string id \"r-7\"".
	Name string
	// Status is Pass, Fail or Warn.
	Status Status
	// Expected and Actual are shown on failure; either may be nil.
	Expected any
	Actual   any
	// Note explains the finding in a sentence.
	Note string
	// Must marks a failure that breaks a MUST even inside a SHOULD check,
	// such as a request never answered.
	Must bool
}

// Env is what a check works with: the run's settings, what the server
// declared, a way to open fresh sessions, and the findings it records.
type Env struct {
	// Revision is the revision this run speaks.
	Revision string
	// Transport is how the server is reached.
	Transport Transport
	// Info is what the server declared at the start of the run.
	Info *ServerInfo

	target Target
	opts   *Options
	rec    *recorder

	// take lets the check start on an initialized stdio server an earlier
	// check left in the pool; handOn puts the check's servers there when
	// it ends (see poolRole).
	take, handOn bool
	// brief marks a check that holds a server only briefly (a few hundred
	// milliseconds at most) and likely hands it on; borrowing is set
	// while it holds one (see sessionPool.acquire).
	brief, borrowing bool
	// fresh marks a check that needs servers nobody has spoken to (the
	// spares are for it); prio is the priority of its starts.
	fresh bool
	prio  int
	// unchanged is set by a probe that knows what it sent cannot have
	// changed the server's state, whatever the server answered (see
	// roleProbe).
	unchanged bool

	mu       sync.Mutex
	findings []Finding
	sessions []*Session
}

// pass records a sub-requirement met.
func (e *Env) pass(name, note string) {
	e.add(Finding{Name: name, Status: Pass, Note: note})
}

// fail records a violation of the check's requirement.
func (e *Env) fail(name string, expected, actual any, note string) {
	e.add(Finding{Name: name, Status: Fail, Expected: expected, Actual: actual, Note: note})
}

// warn records a violation of a SHOULD-level part of a check.
func (e *Env) warn(name string, expected, actual any, note string) {
	e.add(Finding{Name: name, Status: Warn, Expected: expected, Actual: actual, Note: note})
}

// markUnchanged says the check sent nothing that can change the server's
// state, so a server that answered it wrongly may still serve later
// checks (see roleProbe).
func (e *Env) markUnchanged() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.unchanged = true
}

func (e *Env) leftUnchanged() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.unchanged
}

// recorded counts the findings so far.
func (e *Env) recorded() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.findings)
}

func (e *Env) add(f Finding) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.findings = append(e.findings, f)
}

// open starts a fresh session: a new process over stdio, a new client
// over HTTP. Nothing is sent yet.
func (e *Env) open(ctx context.Context) (*Session, error) {
	var started func()
	if e.Transport == Stdio {
		if e.fresh {
			if s := e.opts.pool.takeSpare(ctx, e, true); s != nil {
				return s, nil
			}
		}
		_, release, err := e.opts.pool.acquire(ctx, e, false)
		if err != nil {
			return nil, err
		}
		started = release
	}
	return e.openStarted(ctx, started)
}

// openStarted starts a session whose start slot (nil over HTTP) is
// already held; the slot is freed once the server has answered.
func (e *Env) openStarted(ctx context.Context, started func()) (*Session, error) {
	s, err := e.newSession(ctx, started)
	if err != nil {
		if started != nil {
			started()
		}
		return nil, fmt.Errorf("start a session: %w", err)
	}
	return s, nil
}

// connect starts a fresh session ready for requests: initialized on the
// legacy era; on the modern era every request carries its own _meta, so
// there is nothing to do first.
func (e *Env) connect(ctx context.Context) (*Session, error) {
	var s *Session
	var err error
	if e.take && e.Transport == Stdio {
		var started func()
		if s, started, err = e.opts.pool.acquire(ctx, e, true); err != nil {
			return nil, err
		}
		if s != nil {
			return s, nil
		}
		s, err = e.openStarted(ctx, started)
	} else {
		// A spare for a check that needs a fresh server, or a start.
		s, err = e.open(ctx)
	}
	if err != nil {
		return nil, err
	}
	if probe.IsModern(e.Revision) {
		return s, nil
	}
	r, err := s.Initialize(ctx, "", false)
	if err != nil {
		return nil, err
	}
	if r.Msg.Error != nil {
		return nil, fmt.Errorf("initialize failed: %s", r.Msg.Raw)
	}
	s.mu.Lock()
	s.initialized = true
	s.mu.Unlock()
	return s, nil
}

// forget drops s from the sessions e ends with the check, when something
// else now owns it.
func (e *Env) forget(s *Session) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sessions = slices.DeleteFunc(e.sessions, func(x *Session) bool { return x == s })
}

// httpClient builds the raw HTTP client for the target.
func (e *Env) httpClient() *probe.HTTPClient {
	h := http.Header{}
	for k, v := range e.target.Header {
		h[k] = append([]string(nil), v...)
	}
	return &probe.HTTPClient{URL: e.target.URL, Client: e.target.Client, Header: h}
}

// rawHTTP sends one request outside any session, recording it.
func (e *Env) rawHTTP(ctx context.Context, req probe.HTTPRequest) (*probe.HTTPResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	method := req.Method
	if method == "" {
		method = http.MethodPost
	}
	e.rec.addValue("send", httpSummary(method, 0, req.Header, req.Host))
	if len(req.Body) > 0 {
		e.rec.add("send", req.Body)
	}
	hr, err := e.httpClient().Do(ctx, req)
	if err != nil {
		return nil, err
	}
	e.rec.addValue("recv", httpSummary(method, hr.Status, hr.Header, ""))
	for _, ev := range hr.Events {
		if ev.Data != "" {
			e.rec.add("recv", []byte(ev.Data))
		} else {
			e.rec.addValue("recv", map[string]any{"sse": sseSummary(&ev)})
		}
	}
	if len(hr.Body) > 0 {
		e.rec.add("recv", hr.Body)
	}
	return hr, nil
}

// closeAll ends every session the check opened and reports the first
// stdio server that had exited on its own while the check ran.
func (e *Env) closeAll() (crash string, stderr string) {
	e.mu.Lock()
	sessions := append([]*Session(nil), e.sessions...)
	e.mu.Unlock()
	defer e.opts.pool.giveBack(e)
	for _, s := range sessions {
		if e.handOn && s.reusable() && s.quiesce() && e.opts.pool.put(s) {
			// Still running: no crash to report, only its stderr so far.
			if stderr == "" {
				stderr = s.stderr()
			}
			continue
		}
		s.close()
		if how := s.crashed(); how != "" && crash == "" {
			crash, stderr = how, s.stderr()
		}
		if stderr == "" {
			stderr = s.stderr()
		}
	}
	return crash, stderr
}
