//go:build unix

package probe

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain doubles as the helper server: with PROBE_HELPER set, the test
// binary behaves as the stdio program the tests need.
func TestMain(m *testing.M) {
	switch os.Getenv("PROBE_HELPER") {
	case "":
		os.Exit(m.Run())
	case "echo":
		// Echo every line back, announce itself on stdout and stderr first.
		fmt.Println("not json: hello")
		fmt.Fprintln(os.Stderr, "helper stderr line")
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			fmt.Println(in.Text())
		}
	case "long":
		fmt.Println(strings.Repeat("x", 5000))
		fmt.Println("short")
		_, _ = os.Stdin.Read(make([]byte, 1))
	case "deaf":
		// Never reads stdin, never exits on its own.
		time.Sleep(time.Hour)
	case "family":
		// Starts a grandchild that would outlive it, prints its pid.
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PROBE_HELPER=deaf")
		if err := cmd.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

func helper(t *testing.T, mode string, opts StdioOptions) *Proc {
	t.Helper()
	opts.Command = []string{os.Args[0], "-test.run=^$"}
	opts.Env = append(opts.Env, "PROBE_HELPER="+mode)
	p, err := StartStdio(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func next(t *testing.T, p *Proc) string {
	t.Helper()
	l, err := p.Next(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return string(l.Data)
}

func TestStdioRawLines(t *testing.T) {
	p := helper(t, "echo", StdioOptions{})
	if got := next(t, p); got != "not json: hello" {
		t.Errorf("first line %q", got)
	}
	if err := p.Write([]byte("{\"jsonrpc\":\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteLine([]byte("\x1b[31mred\tX"), time.Second); err != nil {
		t.Fatal(err)
	}
	if got := next(t, p); got != `{"jsonrpc":` {
		t.Errorf("raw bytes changed: %q", got)
	}
	if got := next(t, p); got != "\x1b[31mred\tX" {
		t.Errorf("raw bytes changed: %q", got)
	}
	if _, err := p.Next(50 * time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Errorf("want a timeout, got %v", err)
	}
	// A bounded poll: stderr is read on a goroutine of its own, and the
	// probe announces no event when a line of it arrives.
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(p.Stderr(), "helper stderr line") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(p.Stderr(), "helper stderr line") {
		t.Errorf("stderr not captured: %q", p.Stderr())
	}
	if !strings.Contains(p.Stdout(), "not json: hello") {
		t.Errorf("stdout tail not kept: %q", p.Stdout())
	}
}

func TestStdioEOFAfterExit(t *testing.T) {
	p := helper(t, "echo", StdioOptions{})
	_ = next(t, p)
	_ = p.stdin.Close()
	if _, err := p.Next(10 * time.Second); !errors.Is(err, ErrEOF) {
		t.Fatalf("want EOF, got %v", err)
	}
	select {
	case <-p.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("exit not seen")
	}
	if err, done := p.ExitError(); !done || err != nil {
		t.Errorf("exit: %v %v", err, done)
	}
}

func TestStdioLongLineTruncated(t *testing.T) {
	p := helper(t, "long", StdioOptions{MaxLine: 100})
	l, err := p.Next(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Data) != 100 || !l.Truncated {
		t.Errorf("line of %d bytes, truncated %v", len(l.Data), l.Truncated)
	}
	if got := next(t, p); got != "short" {
		t.Errorf("the next line is %q", got)
	}
}

func TestStdioTailBound(t *testing.T) {
	p := helper(t, "long", StdioOptions{TailBytes: 64})
	_ = next(t, p)
	_ = next(t, p)
	if n := len(p.Stdout()); n > 64 {
		t.Errorf("tail holds %d bytes", n)
	}
}

func TestStdioWriteTimeout(t *testing.T) {
	p := helper(t, "deaf", StdioOptions{})
	big := make([]byte, 4<<20)
	if err := p.Write(big, 200*time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Fatalf("want a write timeout, got %v", err)
	}
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("close took %s", time.Since(start))
	}
}

func TestStdioCloseKillsGroup(t *testing.T) {
	p := helper(t, "family", StdioOptions{})
	pid, err := strconv.Atoi(next(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	// A bounded poll: the grandchild is not our child, so its exit is no
	// event this process can wait on.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		// The grandchild may be a zombie until its parent's group is
		// reaped; a zombie has no state to check portably, so look at
		// /proc where there is one.
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && strings.Contains(string(b), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("grandchild %d survived Close", pid)
}

func TestStdioStartErrors(t *testing.T) {
	if _, err := StartStdio(context.Background(), StdioOptions{}); err == nil {
		t.Error("an empty command started")
	}
	if _, err := StartStdio(context.Background(), StdioOptions{Command: []string{"/nonexistent/mcptest-probe"}}); err == nil {
		t.Error("a missing program started")
	}
}
