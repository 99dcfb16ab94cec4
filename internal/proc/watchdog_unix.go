//go:build unix

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// watchdogScript waits for its stdin to end, then kills its own process
// group, which is the server's. Only mcptest holds the other end of the
// pipe, so stdin ends when mcptest exits for any reason: a crash or SIGKILL
// included, when no Close can run.
const watchdogScript = `read _; kill -s KILL 0`

// StartWatchdog starts a /bin/sh running watchdogScript in the process group
// pgid, and returns the write end of its stdin, which must stay open while
// the session lives. It covers what Pdeathsig cannot: Pdeathsig (Linux
// only) kills the server when mcptest dies, but not the children the server
// started (an npx or uvx wrapper's real server, a shell's jobs), which
// would survive as orphans. Close kills the group, and so the watchdog,
// itself. Without /bin/sh it returns nil and the session goes on unguarded.
func StartWatchdog(pgid int) *os.File {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	cmd := exec.Command("/bin/sh", "-c", watchdogScript)
	cmd.Stdin = r
	// No Pdeathsig: the watchdog must outlive mcptest.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	err = cmd.Start()
	_ = r.Close()
	if err != nil {
		_ = w.Close()
		return nil
	}
	go func() { _ = cmd.Wait() }() // reap it when the group is killed
	return w
}
