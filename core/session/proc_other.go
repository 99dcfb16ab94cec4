//go:build !unix

package session

import (
	"os"
	"os/exec"
)

// setProcAttr does nothing where process groups are not available.
func setProcAttr(*exec.Cmd) {}

// signalGroup kills the process itself where process groups are not
// available; there is no graceful signal, so both steps of Close kill.
func signalGroup(pid int, _ os.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// Signals used by Close.
var (
	sigTerm os.Signal = os.Kill
	sigKill os.Signal = os.Kill
)
