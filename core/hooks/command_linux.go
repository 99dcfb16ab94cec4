//go:build linux

package hooks

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in a new process group, so a timeout
// can kill everything it started, and asks the kernel to kill it if
// mcptest dies first.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
