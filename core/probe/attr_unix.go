//go:build unix && !linux

package probe

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts the server as the leader of a new process group so
// Close can signal everything it started.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
