//go:build linux

package proc

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestStatPPID(t *testing.T) {
	for stat, want := range map[string]int{
		"123 (sleep) S 45 123 123 0 -1":   45,
		"123 (a) b) (c) R 7 123 123 0 -1": 7,
		"123 (two words) Z 1 0 0":         1,
		"garbage":                         -1,
		"123 (x)":                         -1,
		"123 (x) S notanumber 1 1":        -1,
	} {
		got, ok := statPPID(stat)
		if want < 0 {
			if ok {
				t.Errorf("statPPID(%q) = %d, want no answer", stat, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("statPPID(%q) = %d, %v, want %d", stat, got, ok, want)
		}
	}
}

// A grandchild that leaves its group with setsid and ignores SIGTERM is
// handed to the subreaper when its parent exits, and KillOrphans ends it.
func TestKillOrphansEndsAnEscapedGrandchild(t *testing.T) {
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("no setsid program")
	}
	if err := BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	// The shell starts the grandchild, prints its pid and exits.
	out, err := exec.Command("/bin/sh", "-c",
		setsid+` /bin/sh -c 'trap "" TERM; exec sleep 300' >/dev/null 2>&1 </dev/null & echo $!`).Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("pid %q: %v", out, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	// The grandchild is ours now (the shell that started it has exited).
	// Re-parenting sends no signal or event, so this is a bounded poll.
	deadline := time.Now().Add(5 * time.Second)
	for !isChild(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d was not re-parented to the subreaper", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := KillOrphans(5 * time.Second); n < 1 {
		t.Errorf("KillOrphans = %d, want at least 1", n)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("pid %d still exists after KillOrphans", pid)
	}
	// Nothing left: a second call returns at once with nothing done.
	if n := KillOrphans(time.Second); n != 0 {
		t.Errorf("second KillOrphans = %d", n)
	}
}

// isChild reports whether pid's parent is this process.
func isChild(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	ppid, ok := statPPID(string(b))
	return ok && ppid == os.Getpid()
}

// BenchmarkKillOrphansNone is the cost a clean run pays at exit: one
// waitid call that finds no child (hasChildren), no listing, no wait.
func BenchmarkKillOrphansNone(b *testing.B) {
	for b.Loop() {
		if n := KillOrphans(time.Second); n != 0 {
			b.Fatalf("killed %d", n)
		}
	}
}

// Both ways of listing children agree.
func TestChildrenListings(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	kids, ok := taskChildren()
	if !ok {
		t.Skip("no /proc/self/task/*/children on this kernel")
	}
	if !slices.Contains(kids, cmd.Process.Pid) {
		t.Errorf("taskChildren = %v, want %d among them", kids, cmd.Process.Pid)
	}
	if scanned := scanChildren(os.Getpid()); !slices.Contains(scanned, cmd.Process.Pid) {
		t.Errorf("scanChildren = %v, want %d among them", scanned, cmd.Process.Pid)
	}
}

// hasChildren sees a running child and an ended one not yet reaped,
// without reaping it (the zombie's status is still there for its own
// Wait), and says none once it is reaped.
func TestHasChildren(t *testing.T) {
	if hasChildren() {
		t.Skip("the test process already has children")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	if !hasChildren() {
		t.Fatal("a running child was not seen")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	if !WaitGone(cmd.Process.Pid, 10*time.Second) {
		t.Fatal("the child did not die")
	}
	if !hasChildren() {
		t.Fatal("an ended, unreaped child was not seen")
	}
	if !hasChildren() {
		t.Fatal("looking reaped the child")
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child's own Wait got %v, want its death by SIGKILL", err)
	}
	if hasChildren() {
		t.Fatal("a reaped child is still seen")
	}
	if n := KillOrphans(time.Second); n != 0 {
		t.Fatalf("KillOrphans with no children killed %d", n)
	}
}
