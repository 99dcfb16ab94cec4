//go:build linux

package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>
// (Linux 3.4): orphaned descendants are re-parented to the caller rather
// than to init.
const prSetChildSubreaper = 36

// BecomeSubreaper makes the calling process the child subreaper of its
// descendants, so a grandchild whose parent exits (a server's helper that
// called setsid, a daemonising wrapper) becomes mcptest's child, where
// KillOrphans can find it.
func BecomeSubreaper() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %w", errno)
	}
	return nil
}

// KillOrphans sends SIGKILL to every child of the calling process and
// reaps them, again and again until none is left (a killed orphan's own
// children come to us in turn) or until wait has passed. It must run only
// when mcptest is done with all its children: servers, plugins and hooks
// already stopped. It returns how many processes it killed or reaped; with
// no children it returns at once, so a clean run does not wait.
func KillOrphans(wait time.Duration) int {
	if !hasChildren() {
		return 0
	}
	self := os.Getpid()
	deadline := time.Now().Add(wait)
	n := 0
	for {
		kids := children(self)
		if len(kids) == 0 {
			return n
		}
		for _, pid := range kids {
			// Its group too: an orphan that made itself a group leader
			// may have children of its own there.
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for _, pid := range kids {
			if reap(pid, deadline) {
				n++
			}
		}
		if time.Now().After(deadline) {
			return n
		}
	}
}

// hasChildren reports whether the calling process has any child, running
// or ended and not yet reaped, without reaping it: one waitid call
// (P_ALL, WNOHANG|WNOWAIT) that fails with ECHILD when there is none.
// Listing the children reads a /proc file per thread, which at the end of
// every clean run would cost a millisecond to find nothing. Any other
// answer, an error included, counts as "maybe": the caller then looks.
func hasChildren() bool {
	var info [128]byte // siginfo_t
	const pAll = 0
	_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info[0])),
		syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
	return errno != syscall.ECHILD
}

// reap waits for pid to end, polling so the wait stays bounded by
// deadline; it reports whether pid was reaped (or is already gone).
func reap(pid int, deadline time.Time) bool {
	delay := 100 * time.Microsecond
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if got == pid || errors.Is(err, syscall.ECHILD) {
			return true
		}
		if err != nil && !errors.Is(err, syscall.EINTR) {
			return false
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(delay)
		delay = min(2*delay, 10*time.Millisecond)
	}
}

// children lists the children of the calling process (pid self): from
// /proc/self/task/*/children, which names each thread's children and costs
// a few reads, or, on kernels without that file, from every /proc/*/stat.
func children(self int) []int {
	if kids, ok := taskChildren(); ok {
		return kids
	}
	return scanChildren(self)
}

// taskChildren reads /proc/self/task/*/children; ok is false when the
// kernel does not have those files (CONFIG_PROC_CHILDREN). It lists the
// task folder and reads each thread's file by name: a glob would list every
// thread's folder as well (~50 entries each, which the kernel builds on each
// listing), the larger part of what a clean exit costs.
func taskChildren() ([]int, bool) {
	dir, err := os.Open("/proc/self/task")
	if err != nil {
		return nil, false
	}
	tids, err := dir.Readdirnames(-1)
	dir.Close()
	if err != nil {
		return nil, false
	}
	var out []int
	ok := false
	for _, tid := range tids {
		b, err := os.ReadFile("/proc/self/task/" + tid + "/children")
		if err != nil {
			continue // the thread ended meanwhile, or no such file
		}
		ok = true
		for _, field := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(field); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out, ok
}

// scanChildren lists the pids whose parent is ppid, from /proc/*/stat.
func scanChildren(ppid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // gone meanwhile
		}
		if parent, ok := statPPID(string(b)); ok && parent == ppid {
			pid, err := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			if err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// statPPID reads the parent pid from the text of /proc/PID/stat: the
// fourth field, counted after the command name, which is in parentheses
// and may itself hold spaces and parentheses.
func statPPID(stat string) (int, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}
