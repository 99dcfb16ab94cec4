//go:build unix

package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// Signals StopGroup and callers of SignalGroup send, named here so other
// platforms can stand in.
var (
	// SigTerm asks a group to stop.
	SigTerm os.Signal = syscall.SIGTERM
	// SigKill ends a group.
	SigKill os.Signal = syscall.SIGKILL
)

// SignalGroup sends sig to the process group pgid. A group that no longer
// exists is not an error.
func SignalGroup(pgid int, sig os.Signal) error {
	if pgid <= 0 {
		return fmt.Errorf("%w: %d", ErrNoGroup, pgid)
	}
	s, ok := sig.(syscall.Signal)
	if !ok {
		return errors.New("not a syscall.Signal")
	}
	if err := syscall.Kill(-pgid, s); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// KillGroup kills the process group of a command started after SetGroup:
// the command and every child it spawned that did not leave the group. A
// command not started, or a group already gone, is not an error.
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return SignalGroup(cmd.Process.Pid, SigKill)
}

// GroupAlive reports whether any process is left in the group pgid.
func GroupAlive(pgid int) bool {
	return pgid > 0 && syscall.Kill(-pgid, 0) == nil
}

// killLeader kills the group's leader by its pid, in case it moved to
// another group.
func killLeader(pid int) {
	if pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
