//go:build !unix

package proc

import "os"

// Gone reports whether pid has ended: here, whether the system can no
// longer find it.
func Gone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	_ = p.Release()
	return false
}
