package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/report"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Interrupts. SIGINT and SIGTERM are caught from the start of mainCode and
// the command runs on its own goroutine, so a signal is honoured whatever
// the command is blocked on (a FIFO without a writer, a plugin that never
// answers its handshake). What a signal does depends on the command's
// phase:
//
//   - Before it has anything to finish (loading, planning, starting
//     plugins), mcptest exits at once with 130.
//   - Once its reports are open (finishing), the context is cancelled: the
//     tests not begun are skipped, the servers are stopped and every
//     report is completed, then mcptest exits with 130. A second signal,
//     or a command that overruns its finishing budget, ends it at once;
//     reports not yet complete are then dropped and earlier ones kept.

// exitInterrupted is the exit code of a run stopped by Ctrl-C or SIGTERM.
const exitInterrupted = rpt.ExitInterrupted

// errInterrupted is the cancellation cause of a command stopped by a
// signal; context.Cause(ctx) wraps it with the signal's name.
var errInterrupted = errors.New("interrupted")

// interruptedBy says which signal stopped the command.
type interruptedBy struct{ sig os.Signal }

func (e interruptedBy) Error() string { return "interrupted by " + signalName(e.sig) }
func (e interruptedBy) Unwrap() error { return errInterrupted }
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// interrupts watches the signals of one command.
type interrupts struct {
	sigs   chan os.Signal
	cancel context.CancelCauseFunc
	// finishing is how long the command may take to wrap up after a
	// signal, in nanoseconds; 0 while it has nothing to finish.
	finishing atomic.Int64
}

type interruptsKey struct{}

// watchInterrupts starts catching SIGINT and SIGTERM. The returned
// context is cancelled, with an interruptedBy cause, by the first signal.
func watchInterrupts() (context.Context, *interrupts) {
	in := &interrupts{sigs: make(chan os.Signal, 2)}
	signal.Notify(in.sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancelCause(context.Background())
	in.cancel = cancel
	return context.WithValue(ctx, interruptsKey{}, in), in
}

// stop restores the default handling of the signals.
func (in *interrupts) stop() {
	signal.Stop(in.sigs)
	in.cancel(nil)
}

// finishOnInterrupt tells the signal watcher that the command now has
// reports to complete: a signal cancels ctx and waits up to budget for
// the command to return, instead of exiting at once.
func finishOnInterrupt(ctx context.Context, budget time.Duration) {
	if in, ok := ctx.Value(interruptsKey{}).(*interrupts); ok {
		in.finishing.Store(int64(max(budget, time.Second)))
	}
}

// run runs cmd on its own goroutine and returns its exit code, or 130 as
// soon as a signal means mcptest must stop without it.
func (in *interrupts) run(ctx context.Context, stderr io.Writer, cmd func(context.Context) int) int {
	done := make(chan int, 1)
	go func() { done <- cmd(ctx) }()
	var sig os.Signal
	select {
	case code := <-done:
		return code
	case sig = <-in.sigs:
	}
	in.cancel(interruptedBy{sig})
	budget := time.Duration(in.finishing.Load())
	if budget == 0 {
		fmt.Fprintf(stderr, "mcptest: interrupted by %s\n", signalName(sig))
		return in.abandon()
	}
	fmt.Fprintf(stderr, "mcptest: interrupted by %s: stopping the servers and finishing the reports (interrupt again to stop at once)\n", signalName(sig))
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case <-done:
		return exitInterrupted
	case sig = <-in.sigs:
		fmt.Fprintf(stderr, "mcptest: interrupted again by %s: stopping at once; unfinished reports are dropped\n", signalName(sig))
	case <-timer.C:
		fmt.Fprintf(stderr, "mcptest: the interrupted run did not finish within %s; stopping at once; unfinished reports are dropped\n", budget)
	}
	return in.abandon()
}

// abandoned is set when mcptest gives up on a command that is still
// running; main then bounds its wait for the plugins to stop.
var abandoned atomic.Bool

// abandon gives up on the command, which may still be running: main exits
// right after, killing the plugins; servers die with mcptest (their
// parent-death signal, the orphan sweep) or with their stdin.
func (in *interrupts) abandon() int {
	abandoned.Store(true)
	report.DiscardPending()
	return exitInterrupted
}

// stopPlugins kills the plugin processes still running. After an abandoned
// command it waits at most a second: go-plugin holds a client's lock for
// the whole of its start, so killing a plugin that never completes its
// handshake would wait out the start timeout. What it leaves is killed by
// the orphan sweep that follows (Linux) and the plugins' parent-death
// signal.
func stopPlugins() {
	done := make(chan struct{})
	go func() {
		plugin.CleanupClients()
		close(done)
	}()
	if !abandoned.Load() {
		<-done
		return
	}
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}
