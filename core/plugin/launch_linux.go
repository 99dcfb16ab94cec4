package plugin

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal asks the kernel to kill the plugin if mcptest dies
// without the chance to clean up (SIGKILL), so no plugin is orphaned.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
