//go:build !unix

package hooks

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills the command itself; its children are not reachable.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// groupAlive is always false: there are no groups to reap.
func groupAlive(int) bool { return false }

// signalGroup does nothing without process groups.
func signalGroup(int, os.Signal) {}

// Signals reapGroups sends.
var (
	sigTerm os.Signal = os.Interrupt
	sigKill os.Signal = os.Kill
)
