package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
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

// Emitter streams run events to reporter plugins.
type Emitter struct {
	host   *plugin.Host
	redact *Redactor
	term   Terminals

	mu      sync.Mutex
	streams []*stream
	errs    []rpt.RunError
	outMu   sync.Mutex
}

type stream struct {
	out    Output
	rs     *sdk.RenderStream
	file   *os.File
	w      io.Writer
	failed bool
	// finalOnly: the reporter reads only run_finished (its plugin says
	// so), so the live events are not sent to it.
	finalOnly bool
}

// Open starts a render stream for every output. A reporter that cannot be
// started is returned as an error: the run should not start without the
// reports it was asked for.
func Open(ctx context.Context, host *plugin.Host, outputs []Output, term Terminals, redact *Redactor) (*Emitter, error) {
	e := &Emitter{host: host, redact: redact, term: term}
	for _, o := range outputs {
		s, err := e.open(ctx, o)
		if err != nil {
			e.abort()
			return nil, fmt.Errorf("reporter %q: %w", o.Format, err)
		}
		e.streams = append(e.streams, s)
	}
	return e, nil
}

func (e *Emitter) open(ctx context.Context, o Output) (*stream, error) {
	client, err := e.host.Reporter(ctx, o.Plugin)
	if err != nil {
		return nil, err
	}
	s := &stream{out: o, w: e.term.Stdout}
	if desc, err := e.host.Description(ctx, o.Plugin); err == nil {
		s.finalOnly = desc.FinalOnly(o.Format)
	}
	terminal := e.term.StdoutTerm
	if o.Path != "" {
		if err := os.MkdirAll(filepath.Dir(o.Path), 0o755); err != nil {
			return nil, fmt.Errorf("create report folder: %w", err)
		}
		f, err := os.Create(o.Path)
		if err != nil {
			return nil, fmt.Errorf("create report file: %w", err)
		}
		s.file, s.w, terminal = f, f, sdk.Terminal{}
	}
	opts := o.Options
	if len(opts) == 0 {
		opts = json.RawMessage(`{}`)
	}
	s.rs, err = client.Render(ctx, sdk.RenderStart{Key: o.Format, Options: opts, Terminal: terminal, ProgressTerminal: e.term.StderrTerm},
		func(sink sdk.Sink, data []byte) { e.write(s, sink, data) })
	if err != nil {
		if s.file != nil {
			s.file.Close()
		}
		return nil, err
	}
	return s, nil
}

// write routes rendered bytes; it runs on each stream's receive goroutine.
func (e *Emitter) write(s *stream, sink sdk.Sink, data []byte) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	switch sink {
	case sdk.SinkProgress:
		_, _ = e.term.Stderr.Write(data)
	case sdk.SinkStepSummary:
		if e.term.StepSummary != "" {
			if f, err := os.OpenFile(e.term.StepSummary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				_, _ = f.Write(data)
				_ = f.Close()
			}
		}
	default:
		_, _ = s.w.Write(data)
	}
}

// Emit sends one event to every reporter still alive. A reporter that fails
// is recorded and dropped; the others go on.
func (e *Emitter) Emit(ctx context.Context, ev rpt.Event) {
	final := ev.Type == rpt.EventRunFinished
	if !final && !e.wantsLive() {
		// Every reporter reads only the final report: encoding each test's
		// events for nobody would be most of the emitting cost of a run.
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		e.fail(nil, fmt.Errorf("encode %s event: %w", ev.Type, err))
		return
	}
	b = e.redact.Bytes(b)
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.streams {
		if s.failed || (s.finalOnly && !final) {
			continue
		}
		if err := s.rs.Send(b); err != nil {
			e.failLocked(ctx, s, err)
		}
	}
}

// wantsLive reports whether a live reporter is still streaming.
func (e *Emitter) wantsLive() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.streams {
		if !s.failed && !s.finalOnly {
			return true
		}
	}
	return false
}

// Close ends every stream, waits for the reporters to finish and closes the
// files. It returns the run errors of reporters that failed at any point.
func (e *Emitter) Close(ctx context.Context) []rpt.RunError {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.streams {
		if !s.failed {
			if err := s.rs.Close(); err != nil {
				e.failLocked(ctx, s, err)
			}
		}
		if s.file != nil {
			if err := s.file.Close(); err != nil {
				e.errs = append(e.errs, rpt.RunError{Source: "reporter", Name: s.out.Format, Message: e.redact.String(err.Error())})
			}
		}
	}
	return e.errs
}

// Errors returns the reporter failures recorded so far.
func (e *Emitter) Errors() []rpt.RunError {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]rpt.RunError(nil), e.errs...)
}

func (e *Emitter) fail(s *stream, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.failLocked(context.Background(), s, err)
}

func (e *Emitter) failLocked(ctx context.Context, s *stream, err error) {
	re := rpt.RunError{Source: "reporter", Message: err.Error()}
	if s != nil {
		s.failed = true
		re.Name = s.out.Format
		err = e.host.ReporterFailed(ctx, s.out.Plugin, err)
		re.Message = err.Error()
		var pe *plugin.PluginError
		if errors.As(err, &pe) {
			re.Message = fmt.Sprintf("plugin %s@%s: %v", pe.Plugin, pe.Version, pe.Err)
			re.StderrTail = pe.StderrTail
		}
	}
	re.Message = e.redact.String(re.Message)
	re.StderrTail = e.redact.String(re.StderrTail)
	e.errs = append(e.errs, re)
}

// abort closes whatever was opened when Open fails half-way.
func (e *Emitter) abort() {
	for _, s := range e.streams {
		_ = s.rs.Close()
		if s.file != nil {
			s.file.Close()
		}
	}
}
