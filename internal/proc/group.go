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
	ok := exited(grace)
	if !ok {
		_ = SignalGroup(pgid, SigTerm)
		ok = exited(grace)
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
