package proc

import (
	"errors"
	"time"
)

// ErrNoGroup is returned for a process group id that is not positive:
// signalling group 0 or -1 would reach mcptest itself (or everything).
var ErrNoGroup = errors.New("no process group")

// StopGroup ends the process group led by pgid once the caller has closed
// the leader's stdin. exited waits up to its argument for the leader to be
// reaped and says whether it was. The leader gets grace to exit on its
// own, then the group gets SIGTERM and grace again, then SIGKILL and
// killWait. Whatever is still in the group afterwards (children of a
// leader that exited) is killed too. StopGroup reports whether the leader
// exited; it never waits longer than 2*grace+killWait.
func StopGroup(pgid int, exited func(time.Duration) bool, grace, killWait time.Duration) bool {
	return StopGroupAfter(pgid, exited, grace, grace, killWait)
}

// StopGroupAfter is StopGroup with its own grace after SIGTERM: the end of
// stdin is a request many servers do not act on (an event loop kept alive
// by timers), so the wait for it is kept short, while SIGTERM, which
// servers handle to clean up, gets the longer termGrace. It never waits
// longer than stdinGrace+termGrace+killWait.
func StopGroupAfter(pgid int, exited func(time.Duration) bool, stdinGrace, termGrace, killWait time.Duration) bool {
	ok := exited(stdinGrace)
	if !ok {
		_ = SignalGroup(pgid, SigTerm)
		ok = exited(termGrace)
	}
	if !ok {
		_ = SignalGroup(pgid, SigKill)
		killLeader(pgid)
		ok = exited(killWait)
	}
	// Children the leader left in its group go too.
	_ = SignalGroup(pgid, SigKill)
	return ok
}
