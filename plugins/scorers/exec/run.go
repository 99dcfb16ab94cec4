package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mcptest/mcptest/internal/proc"
)

// Limits on what a grader may print. stdout holds one small JSON
// document; more than maxStdout is refused, not read on. stderr is only
// quoted, so its tail is kept and the rest dropped.
const (
	maxStdout  = 1 << 20
	stderrKeep = 8 << 10
	// stderrLines is how many of stderr's last lines an error quotes.
	stderrLines = 10
	// ioGrace is how long the output pipes may stay open after the
	// grader exits or is killed: a background child holding them must not
	// hold the grading.
	ioGrace = 500 * time.Millisecond
)

// Errors of a grading, for errors.Is.
var (
	// ErrTimeout: the grader outlived timeout_ms and its process group
	// was killed.
	ErrTimeout = errors.New("timed out")
	// ErrExit: the grader exited non-zero or was killed by a signal.
	ErrExit = errors.New("failed")
	// ErrOutput: the grader's stdout is not the reply the contract asks.
	ErrOutput = errors.New("bad reply")
)

// pluginEnv are the variables go-plugin and the SDK set for this plugin
// process; the grader gets mcptest's environment without them.
var pluginEnv = map[string]bool{
	"MCPTEST_PLUGIN_MAGIC_COOKIE": true, "MCPTEST_PLUGIN_LOG_LEVEL": true,
	"PLUGIN_MIN_PORT": true, "PLUGIN_MAX_PORT": true, "PLUGIN_PROTOCOL_VERSIONS": true,
	"PLUGIN_CLIENT_CERT": true, "PLUGIN_UNIX_SOCKET_DIR": true, "PLUGIN_UNIX_SOCKET_GROUP": true,
}

// environ is the grader's environment: this process's, less the plugin
// variables, with overlay on top.
func environ(overlay map[string]string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if pluginEnv[k] {
			continue
		}
		if _, over := overlay[k]; over {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range overlay {
		out = append(out, k+"="+v)
	}
	return out
}

// outcome is what one run of a grader left.
type outcome struct {
	stdout []byte
	// stderr holds the last lines of stderr.
	stderr string
}

// run starts the grader of e with stdin, waits at most e.timeout() (or
// until ctx ends), and returns its stdout. The grader runs in a process
// group of its own, killed as a whole when the time is up.
func run(ctx context.Context, e entry, stdin []byte) (outcome, error) {
	cctx, cancel := context.WithTimeout(ctx, e.timeout())
	defer cancel()
	cmd := exec.CommandContext(cctx, e.Command[0], e.Command[1:]...)
	cmd.Env = environ(e.Env)
	cmd.Dir = e.Cwd
	cmd.Stdin = bytes.NewReader(stdin)
	stdout := &capped{max: maxStdout}
	stderr := proc.NewTail(stderrKeep)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	proc.SetGroup(cmd)
	cmd.Cancel = func() error { return proc.KillGroup(cmd) }
	cmd.WaitDelay = ioGrace

	if err := cmd.Start(); err != nil {
		return outcome{}, fmt.Errorf("%s could not start: %w", e.label(), err)
	}
	// If this plugin dies mid-grading (mcptest stopped it, or mcptest
	// itself died), Pdeathsig ends the grader but not what the grader
	// started; the watchdog in its group kills the whole group then.
	if w := proc.StartWatchdog(cmd.Process.Pid); w != nil {
		defer w.Close()
	}
	waitErr := cmd.Wait()
	// Children the grader left in its group (a pipeline, a helper) go
	// with it, even when it exited on its own; so does the watchdog.
	_ = proc.KillGroup(cmd)
	out := outcome{stdout: stdout.buf.Bytes(), stderr: stderr.Lines(stderrLines)}
	switch {
	case errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		return out, withTail(fmt.Errorf("%s %w after %s; its process group was killed", e.label(), ErrTimeout, e.timeout()), out.stderr)
	case ctx.Err() != nil:
		return out, fmt.Errorf("%s interrupted: %w", e.label(), ctx.Err())
	case cmd.ProcessState != nil && cmd.ProcessState.ExitCode() > 0:
		return out, withTail(fmt.Errorf("%s %w: exit status %d", e.label(), ErrExit, cmd.ProcessState.ExitCode()), out.stderr)
	case cmd.ProcessState == nil || cmd.ProcessState.ExitCode() < 0:
		return out, withTail(fmt.Errorf("%s %w: did not exit normally: %v", e.label(), ErrExit, waitErr), out.stderr)
	case stdout.over:
		return out, withTail(fmt.Errorf("%s: %w: more than %d bytes on stdout", e.label(), ErrOutput, maxStdout), out.stderr)
	}
	// A zero exit with exec.ErrWaitDelay only means a background child
	// kept the pipes open; the grader itself answered.
	return out, nil
}

// withTail appends the last lines of stderr to err's message.
func withTail(err error, tail string) error {
	tail = strings.TrimSpace(tail)
	if tail == "" {
		return fmt.Errorf("%w (stderr was empty)", err)
	}
	return fmt.Errorf("%w; last stderr lines:\n%s", err, indent(tail))
}

// indent prefixes every line with two spaces.
func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// capped keeps the first max bytes written and notes whether more came;
// it never fails a write, so the grader is never blocked by a full pipe.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		c.over = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}
