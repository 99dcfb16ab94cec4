package compliance

import "sync"

// Stopping a stdio server takes time the checks need not wait for: a
// server that keeps running after its input ends (server-everything,
// with its timers) is given a grace period before SIGTERM. A check
// settles whether its server crashed before it ends (Session.noteCrash);
// the process itself is stopped in the background, and the run waits for
// every such stop before it returns, so no server outlives the run.

// reaper stops the run's closed stdio servers in the background.
type reaper struct{ wg sync.WaitGroup }

// release stops s's process in the background, or at once over HTTP
// (deleting a session is one short request) or without a reaper.
func (r *reaper) release(s *Session) {
	if r == nil || s.proc == nil {
		s.release()
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		s.release()
	}()
}

// wait returns once every server released so far has stopped.
func (r *reaper) wait() {
	if r != nil {
		r.wg.Wait()
	}
}
