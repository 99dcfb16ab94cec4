package stdiowire

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

func TestServerExitErrorMessage(t *testing.T) {
	e := &ServerExitError{Server: "s", Status: "exit status 2", ExitCode: 2, StderrTail: "boom\n\x1b[1mbold", StdoutNoise: "banner"}
	want := "server \"s\" exited (exit status 2); non-JSON output on stdout:\n  | banner; stderr tail:\n  | boom\n  | \\x1b[1mbold"
	if e.Error() != want {
		t.Fatalf("got  %q\nwant %q", e.Error(), want)
	}
	if !errors.Is(e, ErrServerExited) {
		t.Fatal("not ErrServerExited")
	}
	running := &ServerExitError{Server: "s", Status: statusRunning, ExitCode: -1}
	if got := running.Error(); got != `server "s" closed its stdout (process still running); no stderr output` {
		t.Fatalf("running: %q", got)
	}
}

func TestStdinWriterStall(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sw := newStdinWriter(w)
	defer sw.Close()

	// Nobody reads: a frame bigger than the pipe buffer is written in part.
	big := append(bytes.Repeat([]byte("x"), 1<<20), '\n')
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = sw.writeFrame(ctx, big)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("write took %v", d)
	}
	broken := sw.brokenErr()
	if !errors.Is(broken, errStdinBroken) || !errors.Is(broken, wire.ErrTimeout) {
		t.Fatalf("brokenErr = %v", broken)
	}
	if err := sw.writeFrame(context.Background(), []byte("{}\n")); !errors.Is(err, errStdinBroken) {
		t.Fatalf("write after a partial write: %v", err)
	}
}

func TestStdinWriterClosed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	sw := newStdinWriter(w)
	_ = r.Close() // the server's end is gone
	err = sw.writeFrame(context.Background(), []byte("{}\n"))
	if err == nil || errors.Is(err, wire.ErrTimeout) {
		t.Fatalf("write to a closed pipe: %v", err)
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sw.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := sw.Write([]byte("{}\n")); err == nil {
		t.Fatal("Write after Close succeeded")
	}
}

func TestStdinWriterCancel(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sw := newStdinWriter(w)
	defer sw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	err = sw.writeFrame(ctx, append(bytes.Repeat([]byte("y"), 1<<20), '\n'))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
	// Another writer waiting for the lock gives up with its own context.
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	sw.lock <- struct{}{}
	if err := sw.writeFrame(ctx2, []byte("{}\n")); !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting writer: %v", err)
	}
	<-sw.lock
}
