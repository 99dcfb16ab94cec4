package report

// Settled reports whether every reporter of e has said whether it reads
// live events (or failed), so a test can order its events after that.
func (e *Emitter) Settled() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.streams {
		if s.liveness() == liveUnknown {
			return false
		}
	}
	return true
}
