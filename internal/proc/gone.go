package proc

import "time"

// WaitGone polls Gone for up to d and reports whether pid ended. It
// polls because pid is not the caller's child, so its exit is no event to
// wait on (and a signal is delivered asynchronously).
func WaitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for !Gone(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
