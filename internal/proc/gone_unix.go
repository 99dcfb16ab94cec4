//go:build unix

package proc

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Gone reports whether pid has ended: no such process any more, or a
// zombie waiting for its parent (often init, which may reap slowly) to
// reap it. It is how tests check that nothing outlived a run, for
// processes that are not the caller's children.
func Gone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// The state follows the parenthesised command name.
	i := strings.LastIndexByte(string(stat), ')')
	return i > 0 && strings.HasPrefix(strings.TrimSpace(string(stat[i+1:])), "Z")
}
