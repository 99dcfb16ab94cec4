//go:build !unix

package probe

import (
	"os"
	"os/exec"
)

// setProcAttr does nothing where process groups are not available.
func setProcAttr(*exec.Cmd) {}

// signalGroup can only reach the process itself on these platforms.
func signalGroup(pid int, _ os.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

var (
	sigTerm os.Signal = os.Kill
	sigKill os.Signal = os.Kill
)
