//go:build linux

package proc

import (
	"os/exec"
	"syscall"
)

// SetGroup makes cmd, once started, the leader of a new process group, so
// a Ctrl-C sent to mcptest's group does not reach it (mcptest stops it
// itself) and SignalGroup reaches everything it starts; and asks the
// kernel to kill it if mcptest dies first.
//
// Pdeathsig fires when the thread that started the child exits. The Go
// runtime only ends threads of goroutines that exit while locked with
// runtime.LockOSThread, so cmd must not be started from one.
func SetGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// SetParentDeathSignal asks the kernel to kill cmd if mcptest dies
// without the chance to clean up (SIGKILL), leaving its process group as
// it is. Plugins use it: go-plugin manages their lifetime itself.
func SetParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
