package servers

import (
	"cmp"
	"context"
	"sync"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Pool starts each server of the run once per protocol revision, on
// first use, and shares the session among the tests at that revision.
type Pool struct {
	protocolVersion string
	clientVersion   string
	// redact is the run's redactor, which learns the OAuth secrets
	// obtained at run time (SetRedactor); nil for none.
	redact *redact.Redactor

	mu sync.Mutex
	m  map[string]*serverEntry
	// fixtures maps each live session to its fixture copy (lifecycle.go).
	fixtures sync.Map
	// hints holds the tool annotations of after_write servers' sessions
	// (afterwrite.go).
	hints *ToolHints
	// closing counts the sessions being closed in the background while
	// the run goes on (afterwrite.go); Shutdown waits for them too.
	closing sync.WaitGroup
}

// serverEntry is one server of one suite at one revision.
type serverEntry struct {
	name string
	// suite is the file of the suite that declares the server.
	suite     string
	transport string
	// version is the revision the suite's target_versions asked for; ""
	// when it lists none (the run's revision).
	version string
	once    sync.Once
	sess    *session.Session
	err     error
	// gate lets tests share the session, or one test have it alone
	// (exclusive.go).
	gate sync.RWMutex
	// fixture is the copy of the server's fixture directory; "" for none.
	fixture string
	// first records the first session of a per_test or after_write
	// server (whose sessions close with their tests) for the report; nil
	// otherwise.
	first *rpt.Server
	// keep holds an after_write server's session between its tests; nil
	// for other servers (afterwrite.go).
	keep *keeper
}

// New returns an empty pool. protocolVersion is the run's revision ("" for
// the session default); clientVersion is what mcptest says it is.
func New(protocolVersion, clientVersion string) *Pool {
	return &Pool{protocolVersion: protocolVersion, clientVersion: clientVersion, m: map[string]*serverEntry{}, hints: NewToolHints()}
}

// Get returns the session of a suite's server at a protocol revision
// (version, from the suite's target_versions; "" for the run's), starting
// it if needed. A server that failed to start fails every later get at
// that revision with the same error.
func (s *Pool) Get(ctx context.Context, suite *config.Suite, srv *config.Server, version string) (*session.Session, error) {
	key := suite.File + "\x00" + srv.Name + "\x00" + version
	s.mu.Lock()
	e, ok := s.m[key]
	if !ok {
		e = &serverEntry{name: srv.Name, suite: suite.File, transport: string(cmp.Or(srv.Kind, config.StdioServer)), version: version}
		s.m[key] = e
	}
	s.mu.Unlock()
	version = cmp.Or(version, s.protocolVersion)
	switch {
	case perTest(srv):
		return s.testSession(ctx, suite, srv, e, version)
	case afterWrite(srv):
		return s.leasedSession(ctx, suite, srv, e, version)
	}
	e.once.Do(func() { e.sess, e.fixture, e.err = s.start(ctx, suite, srv, version) })
	return e.sess, e.err
}

// Close shuts every session down in parallel and reports what each server
// said about itself; it returns once every server has stopped.
func (s *Pool) Close() []rpt.Server {
	var wg sync.WaitGroup
	out := s.Shutdown(&wg)
	wg.Wait()
	return out
}

// Shutdown reports what each server said about itself and starts closing
// every session, in parallel and in the background: each close (stdin
// closed, a short grace, SIGTERM, SIGKILL, fixture copy removed) is
// counted in wg, which the caller waits on before it exits. A run's final
// report does not wait for its servers to stop.
func (s *Pool) Shutdown(wg *sync.WaitGroup) []rpt.Server {
	s.mu.Lock()
	entries := make([]*serverEntry, 0, len(s.m))
	for _, e := range s.m {
		entries = append(entries, e)
	}
	s.mu.Unlock()
	s.closeKept(entries)
	s.closingWait(wg)
	out := make([]rpt.Server, len(entries))
	for i, e := range entries {
		rec := rpt.Server{Name: e.name, Transport: e.transport, TargetVersion: e.version}
		if e.err != nil {
			rec.Error = e.err.Error()
		}
		switch {
		case e.sess != nil:
			rec = serverRecord(e.sess)
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = s.closeSession(e.sess, e.fixture)
			}()
		case e.first != nil:
			// A per_test or after_write server's first session, or the compliance
			// checks' view of a server no session reached.
			rec = *e.first
		}
		rec.TargetVersion = e.version
		rec.Suite = e.suite
		out[i] = rec
	}
	rpt.SortServers(out)
	return out
}
