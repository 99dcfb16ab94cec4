//go:build unix

package session

import (
	"github.com/mcptest/mcptest/internal/proc"

	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCrashFailsCallWithExitStatusAndStderr(t *testing.T) {
	s := startDemo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// A call in flight when the server dies fails too, promptly.
	slowErr := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, "slow", json.RawMessage(`{"ms":60000}`))
		slowErr <- err
	}()
	time.Sleep(50 * time.Millisecond)

	start := time.Now()
	out, err := s.CallTool(ctx, "crash", nil)
	if !errors.Is(err, ErrServerExited) {
		t.Fatalf("err = %v, want ErrServerExited", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatalf("crash took %v to be reported", time.Since(start))
	}
	var exit *ServerExitError
	if !errors.As(err, &exit) {
		t.Fatalf("err %T is not a *ServerExitError", err)
	}
	if exit.ExitCode != 3 || exit.Status != "exit status 3" {
		t.Errorf("exit = %d %q, want 3", exit.ExitCode, exit.Status)
	}
	if !strings.Contains(exit.StderrTail, "demo: crash requested") {
		t.Errorf("stderr tail %q lacks the crash message", exit.StderrTail)
	}
	if !strings.Contains(err.Error(), `tools/call "crash": server "demo" exited (exit status 3)`) ||
		!strings.Contains(err.Error(), "demo: crash requested") {
		t.Errorf("error message: %v", err)
	}
	if out == nil || len(out.Frames) != 1 || out.Frames[0].Direction != Sent {
		t.Errorf("outcome on error should carry the request frame: %+v", out)
	}

	select {
	case err := <-slowErr:
		if !errors.Is(err, ErrServerExited) {
			t.Errorf("in-flight call: err = %v, want ErrServerExited", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("in-flight call still waiting after the server died")
	}

	exited, waitErr := s.Exited()
	if !exited || waitErr == nil {
		t.Errorf("Exited() = %v, %v", exited, waitErr)
	}
	// Later calls fail at once with the same cause.
	if _, err := s.CallTool(ctx, "echo", json.RawMessage(`{"message":"x"}`)); !errors.Is(err, ErrServerExited) {
		t.Errorf("call after crash: %v", err)
	}
}

func TestCloseLeavesNoProcess(t *testing.T) {
	s := startDemo(t)
	pid := s.PID()
	if proc.Gone(pid) {
		t.Fatal("server not running before Close")
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(start); d > 900*time.Millisecond {
		t.Errorf("Close of a well-behaved server took %v; it should exit on stdin close", d)
	}
	if !proc.Gone(pid) {
		t.Fatalf("pid %d still exists after Close", pid)
	}
	if exited, _ := s.Exited(); !exited {
		t.Fatal("Exited() = false after Close")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.CallTool(context.Background(), "echo", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v, want ErrClosed", err)
	}
}

func TestCommandNotFound(t *testing.T) {
	for _, cmd := range []string{"mcptest-no-such-server-xyz", "/nonexistent/dir/server"} {
		_, err := StartStdio(context.Background(), StdioConfig{Command: []string{cmd}})
		if err == nil {
			t.Fatalf("%s: StartStdio succeeded", cmd)
		}
		msg := err.Error()
		if !strings.Contains(msg, "start server") || !strings.Contains(msg, cmd) {
			t.Errorf("%s: unclear error %q", cmd, msg)
		}
		if !errors.Is(err, os.ErrNotExist) && !strings.Contains(msg, "not found") {
			t.Errorf("%s: error does not say the program is missing: %v", cmd, err)
		}
	}
	if _, err := StartStdio(context.Background(), StdioConfig{}); err == nil || !strings.Contains(err.Error(), "empty command") {
		t.Errorf("empty command: %v", err)
	}
}

func TestGarbageThenExit(t *testing.T) {
	start := time.Now()
	_, err := StartStdio(context.Background(), StdioConfig{
		Name:        "garbage",
		Command:     []string{"sh", "testdata/garbage_exit.sh"},
		InitTimeout: 10 * time.Second,
	})
	if !errors.Is(err, ErrServerExited) {
		t.Fatalf("err = %v, want ErrServerExited", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v to notice the exit", d)
	}
	var exit *ServerExitError
	if !errors.As(err, &exit) || exit.ExitCode != 7 {
		t.Fatalf("err = %#v, want exit code 7", err)
	}
	if !strings.Contains(exit.StdoutNoise, "Welcome to the server banner") || !strings.Contains(exit.StdoutNoise, "{not json either") {
		t.Errorf("stdout noise = %q", exit.StdoutNoise)
	}
	if !strings.Contains(exit.StderrTail, "fatal: bad config") {
		t.Errorf("stderr tail = %q", exit.StderrTail)
	}
	if !strings.HasPrefix(err.Error(), `initialize server "garbage" (protocol 2025-11-25): server "garbage" exited (exit status 7)`) {
		t.Errorf("message = %v", err)
	}
}

func TestGarbageThenHangTimesOutAndKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	start := time.Now()
	_, err := StartStdio(context.Background(), StdioConfig{
		Name:        "hang",
		Command:     []string{"sh", "testdata/garbage_hang.sh", pidFile},
		InitTimeout: 300 * time.Millisecond,
	})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "starting up...") {
		t.Errorf("error does not show the stdout noise: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("StartStdio took %v", d)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if !proc.WaitGone(child, 2*time.Second) {
		t.Fatalf("grandchild %d survived", child)
	}
}

func TestCloseEscalatesToSIGKILL(t *testing.T) {
	start := time.Now()
	_, err := StartStdio(context.Background(), StdioConfig{
		Name:        "stubborn",
		Command:     []string{"sh", "testdata/stubborn.sh"},
		InitTimeout: 200 * time.Millisecond,
	})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	// The script ignores the end of its stdin and SIGTERM: only SIGKILL
	// ends it, so returning at all means Close escalated. The bound only
	// catches a Close that waits far beyond its graces.
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("start+close took %v", d)
	}
	if !strings.Contains(err.Error(), "stubborn: ignoring SIGTERM") {
		t.Errorf("error lacks the stderr tail: %v", err)
	}
}

func TestOversizedResponse(t *testing.T) {
	s := startDemo(t, func(c *StdioConfig) { c.MaxMessageBytes = 100 << 10 })
	big := strings.Repeat("x", 200<<10)
	args, _ := json.Marshal(map[string]string{"message": big})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.CallTool(ctx, "echo", args)
	if !errors.Is(err, ErrBadResponse) {
		t.Fatalf("err = %v, want ErrBadResponse", err)
	}
	if len(out.Frames) != 2 || !out.Frames[1].Truncated || out.Frames[1].Size < 200<<10 {
		t.Fatalf("frames = %d, received truncated=%v size=%d", len(out.Frames), out.Frames[1].Truncated, out.Frames[1].Size)
	}
	if !out.Frames[0].Truncated || len(out.Frames[0].Raw) > FrameLimit+100 {
		t.Errorf("sent frame not truncated: %d bytes", len(out.Frames[0].Raw))
	}
	// Within the limit, the same session still works.
	if got := toolText(t, callTool(t, s, "echo", `{"message":"small"}`).Result); got != "small" {
		t.Fatalf("echo after oversized = %q", got)
	}
}

func TestLargeResponseWithinLimit(t *testing.T) {
	s := startDemo(t)
	big := strings.Repeat("y", 3<<20)
	args, _ := json.Marshal(map[string]string{"message": big})
	out := callTool(t, s, "echo", string(args))
	if got := toolText(t, out.Result); got != big {
		t.Fatalf("echo of %d bytes came back as %d bytes", len(big), len(got))
	}
	if !out.Frames[1].Truncated || out.Frames[1].Size <= 3<<20 {
		t.Fatalf("received frame: truncated=%v size=%d", out.Frames[1].Truncated, out.Frames[1].Size)
	}
}
