//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// SetGroup makes cmd, once started, the leader of a new process group, so
// a Ctrl-C sent to mcptest's group does not reach it (mcptest stops it
// itself) and SignalGroup reaches everything it starts.
func SetGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// SetParentDeathSignal has no equivalent outside Linux; go-plugin's own
// cleanup on exit and on signals does the work there.
func SetParentDeathSignal(*exec.Cmd) {}
