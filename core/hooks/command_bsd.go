//go:build unix && !linux

package hooks

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in a new process group, so a timeout
// can kill everything it started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
