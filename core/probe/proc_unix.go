//go:build unix

package probe

import (
	"errors"
	"os"
	"syscall"
)

// signalGroup signals the process group led by pid; a group that is
// already gone is not an error.
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

var (
	sigTerm os.Signal = syscall.SIGTERM
	sigKill os.Signal = syscall.SIGKILL
)
