//go:build linux

package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the master end to read what the
// child writes, the slave end to hand to the child as its stderr.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Fatalf("unlock the pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Fatalf("pty number: %v", err)
	}
	s, err := os.OpenFile(filepath.Join("/dev/pts", itoa(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Fatalf("open the pty's slave: %v", err)
	}
	return m, s
}

// runOnTTY runs mcptest with stderr on a terminal and stdout on a pipe,
// and returns both.
func runOnTTY(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	master, slave := openPTY(t)
	defer master.Close()
	cmd := exec.Command(filepath.Join(binDir, "mcptest"), args...)
	cmd.Dir = filepath.Dir(binDir)
	cmd.Env = append(cleanEnv(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	read := make(chan string, 1)
	go func() {
		var b bytes.Buffer
		_, _ = io.Copy(&b, master) // ends with EIO once the child's end closes
		read <- b.String()
	}()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("mcptest did not finish")
	}
	select {
	case s := <-read:
		return out.String(), s, cmd.ProcessState.ExitCode()
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal was not closed")
	}
	return "", "", 0
}

// The live progress line is drawn on a terminal only, and is cleared
// before every test line and at the end; NO_COLOR and TERM=dumb get none.
func TestProgressLineOnATerminal(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"./bin/mcptest-demo-server\"]\ntools:\n")
	for _, m := range []string{"a", "b", "c", "d", "e", "f"} {
		b.WriteString("  - {name: echo " + m + ", server: demo, tool: echo, args: {message: " + m + "}, expect: [{target: \"result.content[0].text\", matcher: {exact: " + m + "}}]}\n")
	}
	b.WriteString("  - {name: fails, server: demo, tool: echo, args: {message: x}, expect: [{target: \"result.content[0].text\", matcher: {exact: y}}]}\n")
	suite := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(suite, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, tty, code := runOnTTY(t, []string{"TERM=xterm"}, "run", "-j", "1", suite)
	if code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, tty)
	}
	for _, want := range []string{"running: 1/7", "running: 7/7, 1 failed", "elapsed", "left"} {
		if !strings.Contains(tty, want) {
			t.Errorf("the terminal lacks %q:\n%q", want, tty)
		}
	}
	if last := strings.LastIndex(tty, "running:"); last < 0 || !strings.Contains(tty[last:], "\r\x1b[K") {
		t.Errorf("the counter is left on the screen: %q", tty)
	}
	if strings.Contains(stdout, "running:") || strings.Contains(stdout, "\r") {
		t.Errorf("the counter reached the pipe: %q", stdout)
	}
	for _, env := range [][]string{{"TERM=xterm", "NO_COLOR=1"}, {"TERM=dumb"}} {
		_, tty, _ := runOnTTY(t, env, "run", "-j", "1", suite)
		if strings.Contains(tty, "running:") || strings.Contains(tty, "\x1b[K") {
			t.Errorf("%v: a live line was drawn: %q", env, tty)
		}
	}
}
