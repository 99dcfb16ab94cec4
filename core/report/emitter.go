package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcptest/mcptest/internal/redact"
	"io"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Output is one requested report: a format, the plugin that renders it and
// where its primary output goes.
type Output struct {
	Format string
	Plugin *plugin.Found
	// Path is the file to write; "" means standard output.
	Path    string
	Options json.RawMessage
}

// Terminals is where unfiled output goes and what those places are.
type Terminals struct {
	Stdout, Stderr         io.Writer
	StdoutTerm, StderrTerm sdk.Terminal
	// StepSummary is the file CI job summaries are appended to
	// ($GITHUB_STEP_SUMMARY); "" drops them.
	StepSummary string
}

// Emitter streams run events to reporter plugins. Each report has its own
// sender (stream.go), so Emit only queues; report files are written beside
// their targets and replace them only when complete (dest.go).
type Emitter struct {
	host    *plugin.Host
	redact  *redact.Redactor
	term    Terminals
	summary *stepSummary

	// mu orders the queueing of events, so every reporter sees them in
	// the same order, and guards errs. It is never held while waiting on
	// a plugin.
	mu      sync.Mutex
	streams []*stream
	// owned holds the events given to EmitOwned while no reporter had yet
	// said whether it reads live events: they are encoded once one says it
	// does, and dropped unencoded if none does (encoding.go).
	owned []rpt.Event
	errs  []rpt.RunError
	// startErrs are the errors of reporters that never started (also in
	// errs).
	startErrs []rpt.RunError
	// outMu keeps the terminal writes of different reporters apart.
	outMu sync.Mutex
}

// Open opens every output's destination and returns at once; each
// reporter plugin starts on its stream's own goroutine, while the run goes
// on. A destination that cannot be opened (a missing folder, a device) is
// returned as an error, before anything else happens: the run should not
// start without the reports it was asked for. A reporter plugin that
// fails to start is a reporter failure like any other (Errors,
// StartErrors): starting one takes a process launch and a handshake, which
// must not delay the servers' start, and events emitted meanwhile wait in
// its queue.
//
// The streams outlive ctx: cancelling it (Ctrl-C) must still let the
// final report through. Every send and the close are bounded by the
// host's call timeout instead.
func Open(ctx context.Context, host *plugin.Host, outputs []Output, term Terminals, redact *redact.Redactor) (*Emitter, error) {
	e := &Emitter{host: host, redact: redact, term: term, summary: &stepSummary{path: term.StepSummary}}
	for _, o := range outputs {
		s, err := e.openDestination(o)
		if err != nil {
			e.abort()
			return nil, fmt.Errorf("reporter %q: %w", o.Format, err)
		}
		e.streams = append(e.streams, s)
	}
	for _, s := range e.streams {
		go e.serve(ctx, s)
	}
	warmEncoder()
	return e, nil
}

// startGraceOnInterrupt is how long a reporter plugin still being started
// when the run is interrupted may take to come up; one that is slower
// (stalled in its handshake) is given up, so the interrupt is not held by
// the plugin start timeout.
const startGraceOnInterrupt = 2 * time.Second

// openDestination prepares o's stream and opens where its output goes.
func (e *Emitter) openDestination(o Output) (*stream, error) {
	s := newStream(o)
	s.terminal = e.term.StdoutTerm
	if o.Path == "" {
		s.dest = stdoutDestination(e.term.Stdout)
		return s, nil
	}
	d, err := openDestination(o.Path)
	if err != nil {
		return nil, err
	}
	s.dest, s.terminal = d, sdk.Terminal{}
	return s, nil
}

// serve starts s's reporter, then sends it the queued events until the
// end (stream.send). A reporter that cannot start is recorded, its queue
// dropped and its output discarded.
func (e *Emitter) serve(ctx context.Context, s *stream) {
	// The start outlives ctx by startGraceOnInterrupt at most; the render
	// itself outlives it altogether (RenderStream's own deadlines).
	wait, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(startGraceOnInterrupt, cancel) })
	defer stop()
	if writesCanonical(e.host, s.out) {
		// No process for a document mcptest can write itself
		// (canonical.go).
		e.startCanonical(s)
		s.send(e.record)
		return
	}
	if err := e.startRender(ctx, wait, s); err != nil {
		s.markFailed()
		e.settleOwned()
		s.dest.discard()
		e.recordStart(s, fmt.Errorf("reporter %q did not start: %w", s.out.Format, err))
		close(s.done)
		return
	}
	s.send(e.record)
}

// startRender starts the render of s's reporter, waiting for the plugin's
// start no longer than wait lasts.
func (e *Emitter) startRender(ctx, wait context.Context, s *stream) error {
	o := s.out
	desc, err := e.host.Description(wait, o.Plugin)
	if err != nil && wait.Err() != nil {
		return fmt.Errorf("%w (the run was interrupted while it was starting)", err)
	}
	if err == nil {
		s.setFinalOnly(desc.FinalOnly(o.Format))
	}
	// The stream now takes live events or not: the owned events held
	// for it are encoded (off the emitting goroutines) or dropped.
	s.setKnown()
	e.settleOwned()
	opts := o.Options
	if len(opts) == 0 {
		opts = json.RawMessage(`{}`)
	}
	rs, err := e.host.Render(ctx, o.Plugin, pluginrpc.RenderStart{Key: o.Format, Options: opts, Terminal: s.terminal, ProgressTerminal: e.term.StderrTerm},
		func(sink pluginrpc.Sink, data []byte) { e.write(s, sink, data) })
	if err != nil {
		return err
	}
	s.rs = rs
	return nil
}

// write routes rendered bytes; it runs on each stream's receive goroutine.
func (e *Emitter) write(s *stream, sink pluginrpc.Sink, data []byte) {
	switch sink {
	case pluginrpc.SinkProgress:
		e.outMu.Lock()
		defer e.outMu.Unlock()
		_, _ = e.term.Stderr.Write(data)
	case pluginrpc.SinkStepSummary:
		if err := e.summary.write(data); err != nil {
			e.record(s, err)
		}
	default:
		if s.dest.f == nil {
			// Standard output is shared with the progress lines on
			// stderr; their order on a terminal is kept.
			e.outMu.Lock()
			defer e.outMu.Unlock()
		}
		s.dest.write(data)
	}
}

// Emit queues one event for every reporter still alive. It does not wait
// for any reporter; one that fails is recorded and dropped, and the others
// go on.
func (e *Emitter) Emit(ctx context.Context, ev rpt.Event) {
	final := ev.Type == rpt.EventRunFinished
	e.mu.Lock()
	if e.liveLocked() == liveNone {
		e.owned = nil
		if !final {
			// Every reporter reads only the final report: encoding each
			// test's events for nobody would be most of the emitting
			// cost of a run.
			e.mu.Unlock()
			return
		}
	}
	if len(e.owned) > 0 {
		// Owned events come first; encoded here, under the lock, so that
		// nothing overtakes them (rare: a reporter still starting).
		defer e.mu.Unlock()
		e.flushOwnedLocked()
		e.pushLocked(ev)
		return
	}
	e.mu.Unlock()
	b, ok := e.encode(ev)
	if !ok {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.streams {
		s.push(b, final)
	}
}

// Close ends every stream, waits for the reporters to finish (each within
// the plugin call timeout) and commits their files. It returns the run
// errors of reporters that failed at any point, a report that could not
// be written among them.
func (e *Emitter) Close(ctx context.Context) []rpt.RunError {
	e.mu.Lock()
	streams := e.streams
	// Owned events still held (a run closed without its final report
	// while a reporter was starting) go out before the end.
	if e.liveLocked() != liveNone {
		e.flushOwnedLocked()
	}
	e.owned = nil
	e.mu.Unlock()
	for _, s := range streams {
		s.end()
	}
	for _, s := range streams {
		<-s.done
	}
	if err := e.summary.close(); err != nil {
		e.record(nil, err)
	}
	return e.Errors()
}

// Errors returns the reporter failures recorded so far.
func (e *Emitter) Errors() []rpt.RunError {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]rpt.RunError(nil), e.errs...)
}

// StartErrors returns the failures of reporters that never started: no
// report of theirs exists, so the caller says so on stderr.
func (e *Emitter) StartErrors() []rpt.RunError {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]rpt.RunError(nil), e.startErrs...)
}

// recordStart records a reporter that never started.
func (e *Emitter) recordStart(s *stream, err error) {
	e.record(s, err)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.startErrs = append(e.startErrs, e.errs[len(e.errs)-1])
}

// record turns a failure of a stream's reporter or output (s is nil for
// neither) into a run error, naming the plugin and keeping its last stderr
// lines when the plugin is at fault.
func (e *Emitter) record(s *stream, err error) {
	re := rpt.RunError{Source: "reporter", Message: err.Error()}
	if s != nil {
		re.Name = s.out.Format
	}
	var pe *plugin.PluginError
	if errors.As(err, &pe) {
		re.Message = fmt.Sprintf("plugin %s@%s: %v", pe.Plugin, pe.Version, pe.Err)
		re.StderrTail = pe.StderrTail
	}
	re.Message = e.redact.String(re.Message)
	re.StderrTail = e.redact.String(re.StderrTail)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.errs = append(e.errs, re)
}

// abort discards the destinations opened when Open fails half-way (no
// reporter has started yet); no earlier report is touched.
func (e *Emitter) abort() {
	for _, s := range e.streams {
		s.dest.discard()
	}
}
