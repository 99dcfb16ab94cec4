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
// Which tests write is only known once they are done, so a test may
// share the kept session with others in flight only when it is expected
// to read (run says so through TestScope.ExpectReads: a resource, prompt,
// list or completion test, or a tool test of a tool the kept session's
// server annotates read-only, with no mocks to answer the server's
// requests) and per_run would let it; any other test has the session
// alone. When a shared session turns out to be spoiled (a reader failed,
// or sent what is not a read), no new test gets it and the last reader
// closes it. A test that already holds another after_write server does
// not wait for this one (two tests waiting for each other's server would
// wait forever): it gets a fresh session of its own, closed when it ends.

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

// keeper is the session an after_write server keeps between tests, and
// who is using it: several tests that are expected to only read share
// it at once (readers), as per_run would let them; any other test has it
// alone (busy), as does the test that starts a fresh one.
type keeper struct {
	mu sync.Mutex
	// changed is closed, and replaced, whenever the state below changes,
	// to wake the tests waiting for it.
	changed chan struct{}
	// sess and fixture are the kept session and its fixture copy; nil
	// and "" when the next test starts a fresh one. While busy, the
	// holder has taken them out.
	sess    *session.Session
	fixture string
	// readOnly is what sess's tools/list annotates readOnlyHint: true;
	// nil until it was listed.
	readOnly map[string]bool
	readers  int
	busy     bool
	// spoiled is set when a reader's traffic may have changed the
	// server: no new test gets sess, which is closed once the last
	// reader is done.
	spoiled bool
}

// wake tells the waiting tests that k changed. k.mu is held.
func (k *keeper) wake() {
	close(k.changed)
	k.changed = make(chan struct{})
}

// shareable reports whether a test that will only read and call tools
// may share the kept session now. k.mu is held.
func (k *keeper) shareable(tools []string) bool {
	if k.sess == nil || k.spoiled || k.busy {
		return false
	}
	for _, t := range tools {
		if !k.readOnly[t] {
			return false
		}
	}
	return true
}

// keeperOf returns the entry's keeper, making it on first use.
func (s *Pool) keeperOf(e *serverEntry) *keeper {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.keep == nil {
		e.keep = &keeper{changed: make(chan struct{})}
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
		got, err := s.acquire(ctx, sc, k, ss)
		if err != nil {
			ss.err = fmt.Errorf("server %q: waiting for the session other tests hold: %w", srv.Name, err)
			return
		}
		if got {
			return
		}
		ss.sess, ss.fixture, ss.err = s.start(ctx, suite, srv, version)
		if ss.err == nil {
			// What the start itself exchanged (initialize, a roots/list
			// the server asked right away) is the state every fresh
			// process starts in, not a test's doing.
			ss.sess.TakeTraffic()
			if ss.keeper != nil {
				s.shareFresh(ctx, sc, k, ss)
			}
		}
		s.noteFirst(e, ss.sess, ss.err)
	})
	return ss.sess, ss.err
}

// shareFresh opens a session the test just started alone to the tests
// waiting to read alongside it, when the test itself is expected to only
// read: the server's tools are listed first (once per session, a read),
// so that their annotations say which tests may share it.
func (s *Pool) shareFresh(ctx context.Context, sc *TestScope, k *keeper, ss *scopedSession) {
	sc.mu.Lock()
	reads, tools := sc.reads, sc.tools
	sc.mu.Unlock()
	if !reads {
		return
	}
	readOnly := s.hints.of(ctx, ss.sess).readOnly
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, t := range tools {
		if !readOnly[t] {
			return // it keeps the session alone
		}
	}
	k.busy, k.readers = false, 1
	k.sess, k.fixture, k.readOnly = ss.sess, ss.fixture, readOnly
	ss.shared = true
	k.wake()
}

// acquire gives the test of scope sc the keeper: shared with other readers
// when the test is expected to only read (ExpectReads) and the kept
// session's annotations cover its tools, else alone. It reports whether
// ss now holds a session to use; false means the test is to start a
// fresh one: alone in the keeper (ss.keeper set), or, when the test
// already holds another after_write server and this one is not free, a
// session of its own outside the keeper (two tests waiting for each
// other's server would wait forever).
func (s *Pool) acquire(ctx context.Context, sc *TestScope, k *keeper, ss *scopedSession) (bool, error) {
	sc.mu.Lock()
	others, tools, reads := sc.leases, sc.tools, sc.reads
	sc.mu.Unlock()
	var start time.Time
	for {
		k.mu.Lock()
		if reads && k.shareable(tools) {
			if k.sess.Alive() {
				k.readers++
				ss.keeper, ss.shared, ss.sess, ss.fixture = k, true, k.sess, k.fixture
				k.mu.Unlock()
				sc.took(start)
				return true, nil
			}
			k.spoiled = true // died between tests; closed below if idle
		}
		if !k.busy && k.readers == 0 {
			k.busy = true
			ss.keeper = k
			sess, fixture := k.sess, k.fixture
			k.sess, k.fixture, k.readOnly, k.spoiled = nil, "", nil, false
			k.mu.Unlock()
			sc.took(start)
			if sess != nil && sess.Alive() {
				ss.sess, ss.fixture = sess, fixture
				return true, nil
			}
			if sess != nil {
				s.closeInBackground(sess, fixture)
			}
			return false, nil
		}
		wait := k.changed
		k.mu.Unlock()
		if others > 0 {
			return false, nil // a session of the test's own
		}
		if start.IsZero() {
			start = time.Now()
		}
		select {
		case <-wait:
		case <-ctx.Done():
			sc.took(start)
			return false, ctx.Err()
		}
	}
}

// took notes one more after_write server held by the test, and the time
// it waited for it since start (zero: it did not wait).
func (sc *TestScope) took(start time.Time) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.leases++
	if !start.IsZero() {
		sc.waited += time.Since(start)
	}
}

// ExpectReads says that the scope's test will only read: it calls no
// tool but tools (none for a resource, prompt, list or completion test),
// answers no request of the server, and so may share an after_write
// server's kept session with other such tests when the server annotates
// every tool in tools readOnlyHint: true. Without it, a test has the
// session alone. What the test really sent is still checked when it
// ends.
func (sc *TestScope) ExpectReads(tools []string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.reads, sc.tools = true, tools
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

// release ends a test's use of an after_write session. A session the
// test had alone is kept for the next test when reusable (the test
// passed and was of a reading kind) and the session is alive and sent
// only reads; otherwise it is closed in the background. A shared session
// that fails the same check is spoiled: no new test gets it, and the
// last of its readers closes it.
func (s *Pool) release(ss *scopedSession, reusable bool) {
	k := ss.keeper
	if k == nil { // a session of the test's own, outside the keeper
		s.closeInBackground(ss.sess, ss.fixture)
		return
	}
	var clean bool
	var readOnly map[string]bool
	if ss.sess != nil {
		tr := ss.sess.TakeTraffic()
		clean = reusable && s.onlyReads(ss.sess, tr) && ss.sess.Alive()
		readOnly = s.hints.listed(ss.sess)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	defer k.wake()
	if ss.shared {
		k.readers--
		if !clean {
			k.spoiled = true
		}
		if k.readers == 0 && k.spoiled {
			s.closeInBackground(k.sess, k.fixture)
			k.sess, k.fixture, k.readOnly, k.spoiled = nil, "", nil, false
		}
		return
	}
	k.busy = false
	if clean {
		k.sess, k.fixture, k.readOnly = ss.sess, ss.fixture, readOnly
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

// closeKept closes every session kept between tests, in the background,
// for Shutdown, once every test is done.
func (s *Pool) closeKept(entries []*serverEntry) {
	for _, e := range entries {
		s.mu.Lock()
		k := e.keep
		s.mu.Unlock()
		if k == nil {
			continue
		}
		k.mu.Lock()
		s.closeInBackground(k.sess, k.fixture)
		k.sess, k.fixture, k.readOnly = nil, "", nil
		k.mu.Unlock()
	}
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
