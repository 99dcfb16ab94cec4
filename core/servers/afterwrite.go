package servers

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
)

// restart_policy after_write. A server's process (or HTTP session) is
// kept for its next test only while no test could have changed its
// state: each test that used it passed, was of a kind that only reads
// (the caller says so when it closes the test's scope), and sent nothing
// but reads, where a tools/call is a read only for a tool the server
// itself annotates readOnlyHint: true. After anything else (a write, a
// tool without that annotation, a failed or errored test, a notification
// or an answer to the server's sampling, elicitation or roots request,
// a process that died) the session is closed and the next test starts a
// fresh one, on a fresh fixture copy when the server has a fixture.
//
// The tests of an after_write server take its session one at a time (a
// lease): a test that could write must never share a process with a test
// in flight, and which tests write is only known once they are done. A
// test that already holds the lease of another after_write server does
// not wait for this one (two tests taking two leases in opposite orders
// would wait for each other forever): it gets a fresh session of its own,
// closed when it ends.

// afterWrite reports whether srv keeps its session only across reads.
func afterWrite(srv *config.Server) bool { return srv.RestartPolicy == config.RestartAfterWrite }

// readMethods are the requests that cannot change a server's state.
var readMethods = map[string]bool{
	"initialize":               true,
	"ping":                     true,
	"server/discover":          true,
	"tools/list":               true,
	"resources/list":           true,
	"resources/templates/list": true,
	"resources/read":           true,
	"prompts/list":             true,
	"prompts/get":              true,
	"completion/complete":      true,
}

// keeper is the session an after_write server keeps between tests.
type keeper struct {
	// lease is held (a value in it) by the test using the kept session.
	lease chan struct{}
	// sess and fixture are the kept session and its fixture copy, nil
	// and "" when the next test starts a fresh one. Only the lease's
	// holder touches them, and Shutdown once every test is done.
	sess    *session.Session
	fixture string
}

// keeperOf returns the entry's keeper, making it on first use.
func (s *Pool) keeperOf(e *serverEntry) *keeper {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.keep == nil {
		e.keep = &keeper{lease: make(chan struct{}, 1)}
	}
	return e.keep
}

// leasedSession returns the session of an after_write server for the
// test ctx belongs to: the kept one when there is one, else a fresh one.
func (s *Pool) leasedSession(ctx context.Context, suite *config.Suite, srv *config.Server, e *serverEntry, version string) (*session.Session, error) {
	sc, _ := ctx.Value(scopeKey{}).(*TestScope)
	if sc == nil {
		return nil, fmt.Errorf("server %q: %w", srv.Name, ErrNoTestScope)
	}
	sc.mu.Lock()
	ss := sc.sessions[e]
	if ss == nil {
		ss = &scopedSession{afterWrite: true}
		sc.sessions[e] = ss
	}
	sc.mu.Unlock()
	ss.once.Do(func() {
		k := s.keeperOf(e)
		if !sc.takeLease(ctx, k) {
			if ctx.Err() != nil {
				ss.err = fmt.Errorf("server %q: waiting for the session another test holds: %w", srv.Name, ctx.Err())
				return
			}
		} else {
			ss.keeper = k
			if k.sess != nil && k.sess.Alive() {
				ss.sess, ss.fixture = k.sess, k.fixture
				k.sess, k.fixture = nil, ""
				return
			}
			if k.sess != nil { // died between tests
				s.closeInBackground(k.sess, k.fixture)
				k.sess, k.fixture = nil, ""
			}
		}
		ss.sess, ss.fixture, ss.err = s.start(ctx, suite, srv, version)
		if ss.err == nil {
			// What the start itself exchanged (initialize, a roots/list
			// the server asked right away) is the state every fresh
			// process starts in, not a test's doing.
			ss.sess.TakeTraffic()
		}
		s.noteFirst(e, ss.sess, ss.err)
	})
	return ss.sess, ss.err
}

// takeLease takes k's lease for the scope's test: it waits for it, unless
// the test already holds another lease, in which case it only takes a
// free one. It reports whether the lease was taken.
func (sc *TestScope) takeLease(ctx context.Context, k *keeper) bool {
	sc.mu.Lock()
	others := sc.leases
	sc.mu.Unlock()
	if others > 0 {
		select {
		case k.lease <- struct{}{}:
		default:
			return false
		}
	} else {
		start := time.Now()
		select {
		case k.lease <- struct{}{}:
		case <-ctx.Done():
			return false
		}
		sc.mu.Lock()
		sc.waited += time.Since(start)
		sc.mu.Unlock()
	}
	sc.mu.Lock()
	sc.leases++
	sc.mu.Unlock()
	return true
}

// noteFirst records the first session (or start failure) of a server
// whose sessions close with their tests, for the report.
func (s *Pool) noteFirst(e *serverEntry, sess *session.Session, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case err == nil && e.first == nil:
		rec := serverRecord(sess)
		e.first, e.err = &rec, nil
	case err != nil && e.first == nil:
		e.err = err
	}
}

// release ends a test's use of an after_write session: it is kept for
// the next test when reusable (the test passed and was of a reading
// kind) and the session is alive and sent only reads; otherwise it is
// closed in the background. The lease, if the test held one, is given
// back either way.
func (s *Pool) release(ss *scopedSession, reusable bool) {
	k := ss.keeper
	if k == nil { // a session of the test's own, outside the lease
		s.closeInBackground(ss.sess, ss.fixture)
		return
	}
	defer func() { <-k.lease }()
	tr := ss.sess.TakeTraffic()
	if reusable && s.onlyReads(ss.sess, tr) && ss.sess.Alive() {
		k.sess, k.fixture = ss.sess, ss.fixture
		return
	}
	s.closeInBackground(ss.sess, ss.fixture)
}

// onlyReads reports whether everything in tr left the server's state as
// it was. The server's tool annotations are read once per session, when a
// test first calls a tool.
func (s *Pool) onlyReads(sess *session.Session, tr session.Traffic) bool {
	if tr.Overflow {
		return false
	}
	for _, m := range tr.Sent {
		switch m.Kind {
		case session.SentRequest:
			if readMethods[m.Method] {
				continue
			}
			if m.Method != MethodToolsCall || m.Tool == "" {
				return false
			}
			// The listing is a read too; it is made once per session.
			if !s.hints.of(context.Background(), sess).readOnly[m.Tool] {
				return false
			}
		case session.SentNotification:
			if m.Method != "notifications/initialized" {
				return false
			}
		case session.SentAnswer:
			if m.Method != "ping" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// closeInBackground closes a session without holding up the caller; the
// run's Shutdown waits for it.
func (s *Pool) closeInBackground(sess *session.Session, fixture string) {
	if sess == nil {
		return
	}
	s.closing.Add(1)
	go func() {
		defer s.closing.Done()
		_ = s.closeSession(sess, fixture)
	}()
}

// keptSessions takes every session kept between tests, for Shutdown.
func (s *Pool) keptSessions(entries []*serverEntry) (out []*keeper) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range entries {
		if e.keep != nil && e.keep.sess != nil {
			out = append(out, &keeper{sess: e.keep.sess, fixture: e.keep.fixture})
			e.keep.sess, e.keep.fixture = nil, ""
		}
	}
	return out
}

// closingWait makes wg wait for the sessions being closed in the
// background as well.
func (s *Pool) closingWait(wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.closing.Wait()
	}()
}

// Waited is how long the test waited for after_write servers' sessions
// that other tests held: time spent queueing, not testing, which the
// test's reported duration leaves out.
func (sc *TestScope) Waited() time.Duration {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.waited
}
