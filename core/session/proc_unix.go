//go:build unix

package session

import (
	"errors"
	"os"
	"syscall"
)

// signalGroup sends sig to the process group led by pid. A group that no
// longer exists is not an error.
func signalGroup(pid int, sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return errors.New("not a syscall.Signal")
	}
	if err := syscall.Kill(-pid, s); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// Signals used by Close, named here so other platforms can stand in.
var (
	sigTerm os.Signal = syscall.SIGTERM
	sigKill os.Signal = syscall.SIGKILL
)
