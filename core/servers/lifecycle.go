package servers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Session lifecycle. A server's sessions live as its restart_policy says:
// per_run (the default) starts one process or HTTP session on first use
// and shares it among the server's tests until the run ends; per_test
// starts a fresh one for each test that uses the server and closes it
// when that test ends. A server with a fixture directory gets a fresh
// copy of it each time it starts, removed once its session is closed,
// whether the run passed, failed or was interrupted.

// perTest reports whether each test gets its own session of srv.
func perTest(srv *config.Server) bool { return srv.RestartPolicy == config.RestartPerTest }

// isolated reports whether what srv answers may depend on which session
// answered: a server restarted per test or after a write, or one that
// works on a fixture copy. Its answers are never shared through the result cache.
func isolated(srv *config.Server) bool { return perTest(srv) || afterWrite(srv) || srv.Fixture != "" }

// start starts a session of srv: it copies the fixture first, when the
// server has one, and expands ${fixture} in the command and env. The copy
// is removed again if the server does not start.
func (s *Pool) start(ctx context.Context, suite *config.Suite, srv *config.Server, version string) (*session.Session, string, error) {
	if srv.Fixture == "" {
		sess, err := s.connect(ctx, suite, srv, version)
		return sess, "", err
	}
	dir, err := CopyFixture(srv.Fixture)
	if err != nil {
		return nil, "", fmt.Errorf("server %q: %w", srv.Name, err)
	}
	sess, err := s.connect(ctx, suite, WithFixture(srv, dir), version)
	if err != nil {
		_ = RemoveFixture(dir)
		return nil, "", err
	}
	s.fixtures.Store(sess, dir)
	return sess, dir, nil
}

// NoteProbed records a server that only compliance checks reached (on
// their own connections), so the report still says what it spoke; a
// server a test session reached keeps that session's record.
func (s *Pool) NoteProbed(suite *config.Suite, srv *config.Server, version string, rec rpt.Server) {
	key := suite.File + "\x00" + srv.Name + "\x00" + version
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[key]; ok {
		return
	}
	rec.Name = srv.Name
	s.m[key] = &serverEntry{name: srv.Name, suite: suite.File, transport: rec.Transport, version: version, first: &rec}
}

// closeSession closes a session, then removes its fixture copy.
func (s *Pool) closeSession(sess *session.Session, fixture string) error {
	err := sess.Close()
	s.fixtures.Delete(sess)
	s.hints.forget(sess)
	return errors.Join(err, RemoveFixture(fixture))
}

// FixtureOf returns the fixture copy a session works on; "" for none.
func (s *Pool) FixtureOf(sess *session.Session) string {
	if sess == nil {
		return ""
	}
	if dir, ok := s.fixtures.Load(sess); ok {
		return dir.(string)
	}
	return ""
}

// serverRecord is the report's record of a live session.
func serverRecord(sess *session.Session) rpt.Server {
	rec := rpt.Server{Name: sess.Name(), Transport: sess.Transport(), ProtocolVersion: sess.ProtocolVersion()}
	rec.ServerName, rec.ServerVersion = sess.ServerInfo()
	if d := sess.Discovery(); d != nil {
		rec.SupportedVersions = d.SupportedVersions
	}
	return rec
}

// TestScope holds the sessions of per_test and after_write servers that
// one test used; they close (or, after_write, may be kept) when the test
// ends.
type TestScope struct {
	mu       sync.Mutex
	sessions map[*serverEntry]*scopedSession
	// leases counts the after_write servers the test holds, and waited
	// the time it spent waiting for them (afterwrite.go).
	leases int
	waited time.Duration
	// reads and tools are what ExpectReads said of the test.
	reads bool
	tools []string
}

// scopedSession is one per_test or after_write server's session within a
// test; the nodes of a composition share it.
type scopedSession struct {
	once    sync.Once
	sess    *session.Session
	fixture string
	err     error
	// keeper is the after_write server's keeper the test holds; nil for
	// a per_test session, or an after_write one of the test's own.
	keeper *keeper
	// shared is true when the test shares the keeper's session with
	// other readers.
	shared bool
	// afterWrite marks an after_write server's session.
	afterWrite bool
}

type scopeKey struct{}

// WithTestScope gives a test its own scope for per_test sessions. The
// caller closes the scope when the test is done.
func WithTestScope(ctx context.Context) (context.Context, *TestScope) {
	sc := &TestScope{sessions: map[*serverEntry]*scopedSession{}}
	return context.WithValue(ctx, scopeKey{}, sc), sc
}

// ErrNoTestScope is returned when a per_test server is asked for outside
// a test, which has no scope to tie the session's life to.
var ErrNoTestScope = errors.New("restart_policy per_test: no test to tie the session to")

// testSession returns the session of a per_test server for the test ctx
// belongs to, starting it on the test's first use.
func (s *Pool) testSession(ctx context.Context, suite *config.Suite, srv *config.Server, e *serverEntry, version string) (*session.Session, error) {
	sc, _ := ctx.Value(scopeKey{}).(*TestScope)
	if sc == nil {
		return nil, fmt.Errorf("server %q: %w", srv.Name, ErrNoTestScope)
	}
	sc.mu.Lock()
	ss := sc.sessions[e]
	if ss == nil {
		ss = &scopedSession{}
		sc.sessions[e] = ss
	}
	sc.mu.Unlock()
	ss.once.Do(func() {
		ss.sess, ss.fixture, ss.err = s.start(ctx, suite, srv, version)
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case ss.err == nil && e.first == nil:
			rec := serverRecord(ss.sess)
			e.first, e.err = &rec, nil
		case ss.err != nil && e.first == nil:
			e.err = ss.err
		}
	})
	return ss.sess, ss.err
}

// Close ends the test's sessions, in parallel, and removes their fixture
// copies. An after_write server's session is kept for the next test
// instead when reusable is true (the test passed and is of a kind that
// only reads) and the session sent only reads (afterwrite.go).
func (sc *TestScope) Close(s *Pool, reusable bool) {
	sc.mu.Lock()
	list := make([]*scopedSession, 0, len(sc.sessions))
	for _, ss := range sc.sessions {
		list = append(list, ss)
	}
	sc.sessions = nil
	sc.mu.Unlock()
	var wg sync.WaitGroup
	for _, ss := range list {
		if ss.afterWrite {
			if ss.sess != nil || ss.keeper != nil {
				s.release(ss, reusable)
			}
			continue
		}
		if ss.sess == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = s.closeSession(ss.sess, ss.fixture)
		}()
	}
	wg.Wait()
}
