//go:build unix

package hooks

import (
	"errors"
	"os/exec"
	"syscall"
)

// killGroup kills the process group of a started command: the command and
// every child it spawned that did not leave the group. A group that is
// already gone is not an error.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// groupAlive reports whether any process is left in the group pgid.
func groupAlive(pgid int) bool {
	return pgid > 0 && syscall.Kill(-pgid, 0) == nil
}

// signalGroup sends sig to the group pgid, ignoring a group that is gone.
func signalGroup(pgid int, sig syscall.Signal) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, sig)
	}
}

// Signals reapGroups sends, named so other platforms can stand in.
var (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)
