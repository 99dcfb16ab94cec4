//go:build linux

package session

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the server in its own process group, so a Ctrl-C sent to
// mcptest's group does not reach it (our shutdown handles it) and the whole
// group can be signalled, and asks the kernel to kill it if mcptest dies.
//
// Pdeathsig fires when the thread that started the child exits. The Go
// runtime only ends threads of goroutines that exit while locked with
// runtime.LockOSThread, so StartStdio must not be called from one.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
