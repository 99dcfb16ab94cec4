package plugin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
)

// RenderStream is one report being rendered by a reporter plugin. Every
// operation on it is bounded by the host's call timeout (--plugin-timeout):
// a reporter that stops taking events or never finishes its report is
// stopped and reported as hung, so it cannot hold up the run or the other
// reporters.
type RenderStream struct {
	h *Host
	p *proc
	// inc is the process the stream runs in; a restart of the plugin does
	// not move a stream.
	inc    *incarnation
	key    string
	rs     *hostrpc.RenderStream
	cancel context.CancelFunc
}

// Render opens a render of start.Key on f's reporter; onOutput receives
// what the reporter writes, in order, from one goroutine.
//
// The stream does not end when ctx is cancelled: an interrupted run still
// sends its final report, so the stream lives until Close (or a deadline)
// ends it.
func (h *Host) Render(ctx context.Context, f *Found, start pluginrpc.RenderStart, onOutput func(pluginrpc.Sink, []byte)) (*RenderStream, error) {
	inc, err := h.get(context.WithoutCancel(ctx), f)
	if err != nil {
		return nil, err
	}
	if inc.reporter == nil {
		return nil, newPluginError(f, errors.New("serves no reporters"), "")
	}
	p, err := h.proc(f)
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &RenderStream{h: h, p: p, inc: inc, key: start.Key, cancel: cancel}
	var rs *hostrpc.RenderStream
	finished, err := s.bounded(func() (err error) {
		rs, err = inc.reporter.Render(sctx, start, onOutput)
		return err
	})
	switch {
	case !finished:
		return nil, s.hung("did not accept the start of the render")
	case err != nil:
		cancel()
		return nil, s.failed(sctx, err)
	}
	s.rs = rs
	return s, nil
}

// Send streams one encoded event. It fails when the reporter has not taken
// the event within the call timeout (the plugin is then stopped), or when
// the reporter already failed.
func (s *RenderStream) Send(eventJSON []byte) error {
	if d := s.p.deadErr(); d != nil {
		s.cancel()
		return d
	}
	finished, err := s.bounded(func() error { return s.rs.Send(eventJSON) })
	if !finished {
		return s.hung("stopped taking events")
	}
	if err != nil {
		return s.failed(context.Background(), err)
	}
	return nil
}

// Close ends the event stream and waits, at most the call timeout, for the
// reporter to finish writing; it returns the reporter's error, if any.
func (s *RenderStream) Close() error {
	defer s.cancel()
	if d := s.p.deadErr(); d != nil {
		return d
	}
	finished, err := s.bounded(s.rs.Close)
	if !finished {
		return s.hung("did not finish its report")
	}
	if err != nil {
		return s.failed(context.Background(), err)
	}
	return nil
}

// Abort ends the stream at once, without waiting for the reporter.
func (s *RenderStream) Abort() { s.cancel() }

// bounded runs fn and waits at most the call timeout for it. When the time
// runs out it returns finished false, leaving fn to end when the stream is
// cancelled.
func (s *RenderStream) bounded(fn func() error) (finished bool, err error) {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	t := time.NewTimer(s.h.opts.CallTimeout)
	defer t.Stop()
	select {
	case err := <-done:
		return true, err
	case <-t.C:
		return false, nil
	}
}

// failed classifies an error of the stream like any call into the plugin.
// A stream cut short because another call hung is not sent again (its
// events are gone), so that is a plugin error of its own.
func (s *RenderStream) failed(ctx context.Context, err error) error {
	err = s.h.callFailed(s.p, s.inc, ctx, err, fmt.Sprintf("reporter %q", s.key))
	if errors.Is(err, errCollateral) {
		return newPluginError(s.p.found, err, s.inc.inst.StderrTail(10))
	}
	return err
}

// hung stops a reporter that missed a deadline and marks its plugin dead,
// so every other stream and call into it fails fast with the same error: a
// render cannot be resumed in a new process, so there is no restart.
func (s *RenderStream) hung(what string) error {
	s.cancel()
	reason := fmt.Errorf("%w: reporter %q %s within %s (%s); the plugin was stopped",
		ErrPluginHung, s.key, what, s.h.opts.CallTimeout, TimeoutFlag)
	if d := s.p.deadErr(); d != nil {
		return d
	}
	// The tail is read before the kill: it holds what the plugin was doing.
	pe := newPluginError(s.p.found, reason, s.inc.inst.StderrTail(10))
	pe.Final = true
	s.p.mu.Lock()
	first := s.inc.stopped.CompareAndSwap(false, true)
	if s.p.cur == s.inc {
		s.p.cur = nil
	}
	if s.p.dead == nil {
		s.p.dead = pe
	}
	dead := s.p.dead
	s.p.mu.Unlock()
	if first {
		s.inc.inst.Kill()
	}
	return dead
}
