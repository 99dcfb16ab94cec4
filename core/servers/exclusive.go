package servers

import (
	"github.com/mcptest/mcptest/core/config"
)

// Hold takes a server's session for one test's requests: shared with
// other tests, or, when exclusive, alone, so that everything the server
// sends meanwhile belongs to that test (over stdio, notifications carry
// no request id to tell them apart). The test calls release when its
// requests are done.
func (s *Pool) Hold(suite *config.Suite, srv *config.Server, version string, exclusive bool) (release func()) {
	s.mu.Lock()
	e := s.m[suite.File+"\x00"+srv.Name+"\x00"+version]
	s.mu.Unlock()
	if e == nil {
		return func() {}
	}
	if exclusive {
		e.gate.Lock()
		return e.gate.Unlock
	}
	e.gate.RLock()
	return e.gate.RUnlock
}
