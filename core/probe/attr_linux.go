//go:build linux

package probe

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts the server as the leader of a new process group so
// Close can signal everything it started, and asks the kernel to kill it
// if mcptest dies first, so a crashed run leaves no server behind.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
