package wire

import "time"

// WaitUntil waits for ch to close or for deadline, whichever comes first.
func WaitUntil(ch <-chan struct{}, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// SleepCtx waits for d, or until done or also closes; it reports whether
// d passed. (A nil also never closes.)
func SleepCtx(d time.Duration, done, also <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	case <-also:
		return false
	}
}
