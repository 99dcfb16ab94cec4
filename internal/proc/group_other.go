//go:build !unix

package proc

import (
	"fmt"
	"os"
	"os/exec"
)

// Without process groups there is no graceful signal: both kill.
var (
	// SigTerm stands in for SIGTERM.
	SigTerm os.Signal = os.Kill
	// SigKill stands in for SIGKILL.
	SigKill os.Signal = os.Kill
)

// SetGroup does nothing where process groups are not available.
func SetGroup(*exec.Cmd) {}

// SetParentDeathSignal does nothing outside Linux.
func SetParentDeathSignal(*exec.Cmd) {}

// SignalGroup kills the process pgid itself; its children are out of
// reach.
func SignalGroup(pgid int, _ os.Signal) error {
	if pgid <= 0 {
		return fmt.Errorf("%w: %d", ErrNoGroup, pgid)
	}
	p, err := os.FindProcess(pgid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// KillGroup kills the command itself; its children are not reachable.
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// GroupAlive is always false: there are no groups to look at.
func GroupAlive(int) bool { return false }

// killLeader is SignalGroup's work already.
func killLeader(int) {}

// StartWatchdog does nothing where process groups are not available.
func StartWatchdog(int) *os.File { return nil }
