//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setsid makes cmd start in a new session, outside the server's process
// group, so signalling that group does not reach it.
func setsid(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
