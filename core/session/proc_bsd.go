//go:build unix && !linux

package session

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the server in its own process group, so a Ctrl-C sent to
// mcptest's group does not reach it (our shutdown handles it) and the whole
// group can be signalled.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
