package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcptest/mcptest/internal/redact"
	"io"
	"sync"

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
	errs    []rpt.RunError
	// outMu keeps the terminal writes of different reporters apart.
	outMu sync.Mutex
}

// Open starts a render stream for every output. A reporter that cannot be
// started is returned as an error: the run should not start without the
// reports it was asked for.
//
// The streams outlive ctx: cancelling it (Ctrl-C) must still let the
// final report through. Every send and the close are bounded by the
// host's call timeout instead.
func Open(ctx context.Context, host *plugin.Host, outputs []Output, term Terminals, redact *redact.Redactor) (*Emitter, error) {
	e := &Emitter{host: host, redact: redact, term: term, summary: &stepSummary{path: term.StepSummary}}
	for _, o := range outputs {
		s, err := e.open(ctx, o)
		if err != nil {
			e.abort()
			return nil, fmt.Errorf("reporter %q: %w", o.Format, err)
		}
		e.streams = append(e.streams, s)
	}
	for _, s := range e.streams {
		go s.send(e.record)
	}
	return e, nil
}

func (e *Emitter) open(ctx context.Context, o Output) (*stream, error) {
	s := newStream(o)
	if desc, err := e.host.Description(ctx, o.Plugin); err == nil {
		s.finalOnly = desc.FinalOnly(o.Format)
	}
	terminal := e.term.StdoutTerm
	if o.Path == "" {
		s.dest = stdoutDestination(e.term.Stdout)
	} else {
		d, err := openDestination(o.Path)
		if err != nil {
			return nil, err
		}
		s.dest, terminal = d, sdk.Terminal{}
	}
	opts := o.Options
	if len(opts) == 0 {
		opts = json.RawMessage(`{}`)
	}
	rs, err := e.host.Render(ctx, o.Plugin, pluginrpc.RenderStart{Key: o.Format, Options: opts, Terminal: terminal, ProgressTerminal: e.term.StderrTerm},
		func(sink pluginrpc.Sink, data []byte) { e.write(s, sink, data) })
	if err != nil {
		s.dest.discard()
		return nil, err
	}
	s.rs = rs
	return s, nil
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
	if !final && !e.wantsLive() {
		// Every reporter reads only the final report: encoding each test's
		// events for nobody would be most of the emitting cost of a run.
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		e.record(nil, fmt.Errorf("encode %s event: %w", ev.Type, err))
		return
	}
	b = e.redact.Bytes(b)
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.streams {
		if s.finalOnly && !final {
			continue
		}
		s.push(b)
	}
}

// wantsLive reports whether a live reporter is still streaming.
func (e *Emitter) wantsLive() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.streams {
		if s.live() {
			return true
		}
	}
	return false
}

// Close ends every stream, waits for the reporters to finish (each within
// the plugin call timeout) and commits their files. It returns the run
// errors of reporters that failed at any point, a report that could not
// be written among them.
func (e *Emitter) Close(ctx context.Context) []rpt.RunError {
	e.mu.Lock()
	streams := e.streams
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

// abort closes whatever was opened when Open fails half-way; no earlier
// report is touched.
func (e *Emitter) abort() {
	for _, s := range e.streams {
		s.rs.Abort()
		s.dest.discard()
	}
}
