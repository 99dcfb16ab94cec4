package intercept

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"

	"github.com/mcptest/mcptest/internal/proc"
)

// maxLine bounds what the trace keeps of one stdio message: a larger
// line is passed on whole, and recorded (as a string) cut at this size.
const maxLine = 64 << 20

// Stdio runs argv as the server, passes the client's stdin to it and its
// stdout back line by line, recording each message, and returns the
// server's exit code once either side closes. The server's stderr is
// passed through untouched.
func Stdio(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer, rec *Recorder) (int, error) {
	if len(argv) == 0 {
		return 2, errors.New("intercept: no server command after --")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	proc.SetGroup(cmd)
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return 2, fmt.Errorf("intercept: %w", err)
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return 2, fmt.Errorf("intercept: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return 2, fmt.Errorf("intercept: start %s: %w", argv[0], err)
	}
	var wg sync.WaitGroup
	// Server to client: when the server closes its stdout, we are done.
	serverDone := make(chan struct{})
	wg.Go(func() {
		defer close(serverDone)
		pump(fromServer, stdout, ToClient, rec)
	})
	// Client to server: when the client closes stdin, close the server's.
	clientDone := make(chan struct{})
	go func() {
		defer close(clientDone)
		pump(stdin, toServer, ToServer, rec)
		_ = toServer.Close()
	}()
	select {
	case <-serverDone:
	case <-clientDone:
	case <-ctx.Done():
		_ = toServer.Close()
	}
	waited := make(chan error, 1)
	go func() { wg.Wait(); waited <- cmd.Wait() }()
	// Stop the server as mcptest stops its own (internal/proc): its stdin
	// is closed (or it closed its stdout); give it a moment, then SIGTERM,
	// then SIGKILL, and whatever it left in its group goes too.
	var werr error
	exited := func(d time.Duration) bool {
		select {
		case werr = <-waited:
			return true
		case <-time.After(d):
			return false
		}
	}
	if !proc.StopGroup(cmd.Process.Pid, exited, 2*time.Second, 2*time.Second) {
		werr = <-waited
	}
	return exitCode(werr), nil
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ee.ExitCode() >= 0 {
			return ee.ExitCode()
		}
		return 1
	}
	if err != nil {
		return 1
	}
	return 0
}

// pump copies newline-delimited messages from r to w, recording each.
func pump(r io.Reader, w io.Writer, dir string, rec *Recorder) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		}
		if _, werr := w.Write(chunk); werr != nil {
			return
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		rec.Record(dir, line)
		line = line[:0]
		if err != nil {
			return
		}
	}
}
