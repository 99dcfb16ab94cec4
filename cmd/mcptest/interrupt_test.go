//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalSelf sends sig to the test process, which watchInterrupts has
// made catch it.
func signalSelf(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
}

// runWatched runs cmd as mainCode does and returns its code and stderr;
// it fails the test if mcptest would not have stopped.
func runWatched(t *testing.T, cmd func(context.Context) int, during func()) (int, string) {
	t.Helper()
	ctx, in := watchInterrupts()
	defer in.stop()
	var stderr strings.Builder
	got := make(chan int, 1)
	go func() { got <- in.run(ctx, &stderr, cmd) }()
	during()
	select {
	case code := <-got:
		return code, stderr.String()
	case <-time.After(30 * time.Second):
		t.Fatal("the signal was not honoured")
		return 0, ""
	}
}

// A command blocked where no context reaches (here a read from a pipe
// nobody writes, like a suite that is a FIFO without a writer) still ends
// on SIGTERM, before it has anything to finish.
func TestSignalEndsBlockedCommand(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	started := make(chan struct{})
	code, stderr := runWatched(t, func(context.Context) int {
		close(started)
		_, _ = r.Read(make([]byte, 1))
		return 0
	}, func() {
		<-started
		signalSelf(t, syscall.SIGTERM)
	})
	if code != exitInterrupted || !strings.Contains(stderr, "interrupted by SIGTERM") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
}

// Once its reports are open, a command is cancelled and given the time to
// finish them; the cause names the signal.
func TestSignalLetsReportsFinish(t *testing.T) {
	started := make(chan struct{})
	finished := false
	var cause error
	code, stderr := runWatched(t, func(ctx context.Context) int {
		finishOnInterrupt(ctx, time.Minute)
		close(started)
		<-ctx.Done()
		cause = context.Cause(ctx)
		finished = true
		return 1
	}, func() {
		<-started
		signalSelf(t, syscall.SIGINT)
	})
	if code != exitInterrupted || !finished {
		t.Errorf("code %d, finished %v", code, finished)
	}
	if !errors.Is(cause, errInterrupted) || cause.Error() != "interrupted by SIGINT" {
		t.Errorf("cause %v", cause)
	}
	if !strings.Contains(stderr, "finishing the reports") {
		t.Errorf("stderr %q", stderr)
	}
}

// A second signal stops a command that is slow to finish, at once.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	block := make(chan struct{})
	defer close(block)
	code, stderr := runWatched(t, func(ctx context.Context) int {
		finishOnInterrupt(ctx, time.Hour)
		close(started)
		<-ctx.Done()
		close(cancelled)
		<-block
		return 0
	}, func() {
		<-started
		signalSelf(t, syscall.SIGINT)
		<-cancelled
		signalSelf(t, syscall.SIGINT)
	})
	if code != exitInterrupted || !strings.Contains(stderr, "stopping at once") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
}
