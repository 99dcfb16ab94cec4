package plugin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
)

// TimeoutFlag is the command-line flag that sets HostOptions.CallTimeout;
// hang messages name it so the reader knows what to raise.
const TimeoutFlag = "--plugin-timeout"

// maxHangRestarts is how many times a plugin stopped for a hang is started
// again: once, so one stuck assertion does not cost every later one, while
// a plugin that hangs again is not restarted forever.
const maxHangRestarts = 1

// errCollateral marks a call that failed because the host stopped the
// plugin for another call's hang; the items were not judged and may be
// sent again.
var errCollateral = errors.New("the plugin was stopped while this call was in flight")

// stoppedError is the failure of the work that reaches a plugin stopped
// for good after a hang: it names the test that hung, not a deadline this
// work never met.
type stoppedError struct {
	during  string
	timeout time.Duration
}

func (e *stoppedError) Error() string {
	return fmt.Sprintf("was stopped after it hung on %s (no answer within %s, %s) and was not started again, since it had already been restarted after a hang",
		e.during, e.timeout, TimeoutFlag)
}

// Is makes a stopped plugin match ErrPluginHung.
func (e *stoppedError) Is(target error) bool { return target == ErrPluginHung }

// callFailed classifies an error of a call into inc, one of p's processes:
// a hang stops the process (to be started again once), a crash marks the
// plugin failed for the rest of the run, a call cut short by another's
// hang wraps errCollateral; other errors are returned as they are. during
// says what the call was doing, for messages ("test \"x\"").
func (h *Host) callFailed(p *proc, inc *incarnation, callCtx context.Context, err error, during string) error {
	// gRPC's own deadline timer can fire a moment before the context's, so
	// the status code counts as much as the context.
	timedOut := errors.Is(callCtx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
	switch {
	case timedOut && (inc.stopped.Load() || !inc.inst.Exited()):
		return h.hung(p, inc, during)
	case inc.stopped.Load():
		return fmt.Errorf("%w: %w", errCollateral, err)
	case errors.Is(err, hostrpc.ErrPluginExited) || inc.inst.Exited():
		return h.crashed(callCtx, p, inc, err)
	}
	if d := p.deadErr(); d != nil {
		return d
	}
	return newPluginError(p.found, err, "")
}

// hung stops inc after a call into it missed its deadline. The first call
// to notice decides: the plugin is started again for later work, or, if it
// was restarted before, it is marked stopped for the rest of the run.
func (h *Host) hung(p *proc, inc *incarnation, during string) error {
	p.mu.Lock()
	first := inc.stopped.CompareAndSwap(false, true)
	again := false
	if first {
		if p.cur == inc {
			p.cur = nil
		}
		if p.restarts >= maxHangRestarts && p.dead == nil {
			again = true
			// Published before the kill, so no caller starts the plugin
			// meanwhile; the tail is what it said while it hung.
			p.dead = newPluginError(p.found, &stoppedError{during: during, timeout: h.opts.CallTimeout}, inc.inst.StderrTail(10))
			p.dead.Final = true
		}
	}
	p.mu.Unlock()
	if first {
		inc.inst.Kill()
	}
	next := "; it is started again for the remaining work"
	switch {
	case again:
		next = " for the rest of the run, having hung once before"
	case !first:
		next = ""
	}
	reason := fmt.Errorf("%w: no answer within %s (%s) on %s; the plugin was stopped%s",
		ErrPluginHung, h.opts.CallTimeout, TimeoutFlag, during, next)
	return newPluginError(p.found, reason, inc.inst.StderrTail(10))
}

// crashExitWait bounds the wait for a crashed plugin's exit. A call can
// fail as if the process had gone (its connection dropped) while the
// process lingers; its error is reported then with the stderr there is.
const crashExitWait = 2 * time.Second

// crashed marks p failed for the rest of the run after its process exited.
// It waits for the exit itself, which go-plugin signals only after reading
// the plugin's stderr to the end, so the tail holds the panic or the last
// words; ctx (the failed call's) ends the wait early on an interrupt.
func (h *Host) crashed(ctx context.Context, p *proc, inc *incarnation, err error) error {
	wait := time.NewTimer(crashExitWait)
	select {
	case <-inc.inst.Done():
	case <-ctx.Done():
	case <-wait.C:
	}
	wait.Stop()
	pe := newPluginError(p.found, fmt.Errorf("%w: the plugin process exited during the run: %v", ErrPluginCrashed, err), inc.inst.StderrTail(10))
	pe.Final = true
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur == inc {
		p.cur = nil
	}
	if p.dead == nil {
		p.dead = pe
	}
	return p.dead
}
