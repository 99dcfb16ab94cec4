package contract

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"slices"

	"github.com/mcptest/mcptest/sdk/report"
)

// Reporter renders a run. Render is called once per run and reads the run's
// events from the session until they end; whatever it writes to the
// session's writers is streamed to the host, which owns files and the
// terminal.
type Reporter interface {
	Render(ctx context.Context, s *RenderSession) error
}

// ReporterFunc adapts a function to the Reporter interface.
type ReporterFunc func(ctx context.Context, s *RenderSession) error

// Render calls f.
func (f ReporterFunc) Render(ctx context.Context, s *RenderSession) error { return f(ctx, s) }

// FinalReporter adapts a function that only needs the complete report: it
// skips the live events and is called once with the run_finished report.
// The plugin's description says so (CapabilityFinalOnly), and the host then
// sends it run_finished alone.
func FinalReporter(fn func(ctx context.Context, s *RenderSession, run *report.Run) error) Reporter {
	return finalReporter(fn)
}

// finalReporter is the Reporter FinalReporter returns.
type finalReporter func(ctx context.Context, s *RenderSession, run *report.Run) error

// Render implements Reporter.
func (fn finalReporter) Render(ctx context.Context, s *RenderSession) error {
	for ev := range s.Events() {
		if ev.Type == report.EventRunFinished && ev.Run != nil {
			return fn(ctx, s, ev.Run)
		}
	}
	return ErrNoRunFinished
}

// CanonicalReporter is the reporter of the canonical report document: it
// writes the run_finished report with report.WriteCanonical to the primary
// sink, and nothing else. The plugin's description says so
// (CapabilityCanonical, with CapabilityFinalOnly), and a host may then
// write that document itself, without starting the plugin.
func CanonicalReporter() Reporter { return canonicalReporter{} }

// canonicalReporter is the Reporter CanonicalReporter returns.
type canonicalReporter struct{}

// Render implements Reporter.
func (canonicalReporter) Render(ctx context.Context, s *RenderSession) error {
	return finalReporter(func(_ context.Context, s *RenderSession, run *report.Run) error {
		return report.WriteCanonical(s.Primary, run)
	}).Render(ctx, s)
}

// CapabilityCanonical, followed by a report format, is the capability of
// a plugin whose reporter for that format is CanonicalReporter: its output
// is report.WriteCanonical of the run_finished report, byte for byte, and
// it writes nothing else, so a host may write it without the plugin.
const CapabilityCanonical = "reporter-canonical:"

// Canonical reports whether d declares that its reporter for format writes
// the canonical report document (CapabilityCanonical) and reads only
// run_finished.
func (d Description) Canonical(format string) bool {
	return slices.Contains(d.Capabilities, CapabilityCanonical+format) && d.FinalOnly(format)
}

// CapabilityFinalOnly, followed by a report format, is the capability of a
// plugin whose reporter for that format reads only the run_finished event:
// a host may leave the other events out of its stream.
const CapabilityFinalOnly = "reporter-final-only:"

// FinalOnly reports whether d declares that its reporter for format reads
// only run_finished.
func (d Description) FinalOnly(format string) bool {
	return slices.Contains(d.Capabilities, CapabilityFinalOnly+format)
}

// ErrNoRunFinished is returned by a FinalReporter whose event stream ended
// without a run_finished event.
var ErrNoRunFinished = errors.New("event stream ended without run_finished")

// Terminal describes where output goes.
type Terminal struct {
	// IsTTY is set when the destination is an interactive terminal that
	// understands cursor control (the host reports TERM=dumb as not one).
	IsTTY bool
	// Color is set when the host allows colour (a TTY, NO_COLOR unset or
	// empty, TERM is not dumb).
	Color bool
	// Width is the terminal width in columns, 0 when unknown.
	Width int
}

// RenderSession is one run as seen by a reporter.
type RenderSession struct {
	// Key is the report format requested, so one implementation can serve
	// several formats.
	Key string
	// Options holds reporter options as JSON ({} when none).
	Options json.RawMessage
	// Terminal describes the primary destination; ProgressTerminal
	// describes stderr.
	Terminal         Terminal
	ProgressTerminal Terminal
	// Primary receives the report itself (the --output file, or stdout).
	Primary io.Writer
	// Progress receives live progress meant for a person (stderr).
	Progress io.Writer
	// StepSummary receives a CI job summary; the host appends it to
	// $GITHUB_STEP_SUMMARY when that is set and drops it otherwise.
	StepSummary io.Writer

	next func() (report.Event, bool)
}

// NewRenderSession builds a session over an event source, for tests and for
// reporters used in-process. next returns false when the events end.
func NewRenderSession(key string, next func() (report.Event, bool), primary, progress, stepSummary io.Writer) *RenderSession {
	return &RenderSession{
		Key: key, Options: json.RawMessage(`{}`),
		Primary: primary, Progress: progress, StepSummary: stepSummary,
		next: next,
	}
}

// Events yields the run's events in order. Output written while handling
// one event reaches the host before the next event is read.
func (s *RenderSession) Events() iter.Seq[report.Event] {
	return func(yield func(report.Event) bool) {
		for {
			ev, ok := s.next()
			if !ok || !yield(ev) {
				return
			}
		}
	}
}
