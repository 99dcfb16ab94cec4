//go:build unix

package proc

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startGroup starts a shell in a group of its own that ignores SIGTERM,
// starts a child in the same group and prints the child's pid. It returns
// the leader, the child's pid and a channel closed when the leader is reaped.
func startGroup(t *testing.T, script string) (*exec.Cmd, int, chan struct{}) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	SetGroup(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no pid from the shell: %v", err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	return cmd, child, exited
}

// waiter turns a channel into the wait function StopGroup takes.
func waiter(ch chan struct{}) func(time.Duration) bool {
	return func(d time.Duration) bool {
		select {
		case <-ch:
			return true
		case <-time.After(d):
			return false
		}
	}
}

// A leader that ignores SIGTERM is killed, and so is the child it left
// in its group.
func TestStopGroupEscalatesToKill(t *testing.T) {
	cmd, child, exited := startGroup(t, `trap "" TERM; sleep 300 & echo $!; wait`)
	if !GroupAlive(cmd.Process.Pid) {
		t.Fatal("group not alive after start")
	}
	if !StopGroup(cmd.Process.Pid, waiter(exited), 50*time.Millisecond, 5*time.Second) {
		t.Fatal("StopGroup says the leader did not exit")
	}
	if !WaitGone(child, 5*time.Second) {
		t.Errorf("child %d survived StopGroup", child)
	}
}

// A leader that exits on its own is not signalled, but the child it
// leaves behind in the group is still killed.
func TestStopGroupKillsWhatTheLeaderLeft(t *testing.T) {
	cmd, child, exited := startGroup(t, `sleep 300 >/dev/null & echo $!`)
	if !StopGroup(cmd.Process.Pid, waiter(exited), 5*time.Second, 5*time.Second) {
		t.Fatal("StopGroup says the leader did not exit")
	}
	if !WaitGone(child, 5*time.Second) {
		t.Errorf("child %d survived StopGroup", child)
	}
}

// Group ids that would reach mcptest's own group, or every process, are
// refused rather than signalled.
func TestSignalGroupRefusesNonPositive(t *testing.T) {
	for _, pgid := range []int{0, -1} {
		if err := SignalGroup(pgid, SigTerm); !errors.Is(err, ErrNoGroup) {
			t.Errorf("SignalGroup(%d) = %v, want ErrNoGroup", pgid, err)
		}
	}
	if GroupAlive(0) {
		t.Error("GroupAlive(0) = true")
	}
}

// KillGroup of a command never started does nothing; of a started one
// it ends the whole group, and a second call on the gone group is no error.
func TestKillGroup(t *testing.T) {
	if err := KillGroup(exec.Command("true")); err != nil {
		t.Errorf("KillGroup(not started) = %v", err)
	}
	cmd, child, exited := startGroup(t, `sleep 300 & echo $!; wait`)
	if err := KillGroup(cmd); err != nil {
		t.Fatal(err)
	}
	<-exited
	if !WaitGone(child, 5*time.Second) {
		t.Errorf("child %d survived KillGroup", child)
	}
	if err := KillGroup(cmd); err != nil {
		t.Errorf("second KillGroup = %v", err)
	}
}

// Closing the watchdog's pipe (as mcptest's exit does) kills the group.
func TestWatchdogKillsGroupWhenPipeCloses(t *testing.T) {
	cmd, child, exited := startGroup(t, `sleep 300 & echo $!; wait`)
	w := StartWatchdog(cmd.Process.Pid)
	if w == nil {
		t.Skip("no /bin/sh for the watchdog")
	}
	select {
	case <-exited:
		t.Fatal("leader ended while the watchdog's pipe was open")
	case <-time.After(50 * time.Millisecond):
	}
	_ = w.Close()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("leader survived the watchdog")
	}
	if !WaitGone(child, 5*time.Second) {
		t.Errorf("child %d survived the watchdog", child)
	}
}

// A leader that takes SIGTERM to clean up gets the whole termGrace for
// it, not the short wait for the end of its stdin: here the TERM handler
// writes a file before exiting, which SIGKILL would have prevented.
func TestStopGroupAfterGivesTermItsOwnGrace(t *testing.T) {
	done := filepath.Join(t.TempDir(), "cleaned")
	cmd, child, exited := startGroup(t, `trap "sleep 0.2; echo ok > `+done+`; exit 0" TERM; sleep 300 & echo $!; wait`)
	if !StopGroupAfter(cmd.Process.Pid, waiter(exited), 10*time.Millisecond, 10*time.Second, 5*time.Second) {
		t.Fatal("StopGroupAfter says the leader did not exit")
	}
	if b, err := os.ReadFile(done); err != nil || strings.TrimSpace(string(b)) != "ok" {
		t.Fatalf("the TERM handler did not finish its cleanup (%q, %v): killed before the end of termGrace", b, err)
	}
	if !WaitGone(child, 5*time.Second) {
		t.Errorf("child %d survived StopGroupAfter", child)
	}
}
