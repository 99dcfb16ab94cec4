//go:build unix

package session

import (
	"github.com/mcptest/mcptest/internal/proc"

	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// watchdogHelperEnv makes TestWatchdogHelper act as a client process that
// the test can kill.
const watchdogHelperEnv = "MCPTEST_SESSION_WATCHDOG_HELPER"

// TestWatchdogHelper is not a test: run by TestKilledClientLeavesNoOrphans
// in a process of its own, it starts the chaos server with a child, prints
// both pids and waits to be killed.
func TestWatchdogHelper(t *testing.T) {
	bin := os.Getenv(watchdogHelperEnv)
	if bin == "" {
		t.Skip("helper process only")
	}
	s, err := StartStdio(context.Background(), StdioConfig{Name: "chaos", Command: []string{bin, "-child"}, InitTimeout: 10 * time.Second})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	child := regexp.MustCompile(`child pid (\d+)`)
	for range 200 {
		if m := child.FindStringSubmatch(s.StderrTail(0)); m != nil {
			fmt.Printf("pids %d %s\n", s.PID(), m[1])
			time.Sleep(time.Minute)
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("error: no child pid on stderr:", s.StderrTail(0))
	os.Exit(1)
}

// A client killed outright (SIGKILL, a crash) runs no Close, yet neither
// its server nor the server's own child may survive it.
func TestKilledClientLeavesNoOrphans(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestWatchdogHelper$")
	cmd.Env = append(os.Environ(), watchdogHelperEnv+"="+chaosBin(t))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	fields := strings.Fields(line)
	if len(fields) != 3 || fields[0] != "pids" {
		t.Fatalf("helper said %q", line)
	}
	server, _ := strconv.Atoi(fields[1])
	child, _ := strconv.Atoi(fields[2])
	if proc.Gone(server) || proc.Gone(child) {
		t.Fatalf("server %d or child %d not running before the kill", server, child)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for _, pid := range []int{server, child} {
		if !proc.WaitGone(pid, 3*time.Second) {
			_ = exec.Command("kill", "-9", strconv.Itoa(pid)).Run()
			t.Errorf("process %d survived its client", pid)
		}
	}
}

// The watchdog starts beside the handshake, but a session is handed out
// only once its watchdog runs in the server's process group; closing the
// session leaves nothing of that group, the watchdog included.
func TestSessionIsGuardedWhenStarted(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to read process groups from")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the watchdog")
	}
	for range 5 {
		s := startDemo(t)
		pgid := s.PID()
		if got := groupCommands(t, pgid); !strings.Contains(got, "(sh)") {
			t.Fatalf("process group %d right after the start: %s; want the watchdog (sh) in it", pgid, got)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		// Killed by Close, reaped just after: give the reaping a moment.
		for deadline := time.Now().Add(5 * time.Second); proc.GroupAlive(pgid); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("process group %d still alive after Close: %s", pgid, groupCommands(t, pgid))
			}
		}
	}
}

// groupCommands lists "pid (comm)" of the live processes in group pgid.
func groupCommands(t *testing.T, pgid int) string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		raw, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		s := string(raw)
		end := strings.LastIndexByte(s, ')')
		if end < 0 {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			out = append(out, s[:end+1])
		}
	}
	return strings.Join(out, ", ")
}
