package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// Output limits.
const (
	// stderrLines is how many trailing stderr lines are shown.
	stderrLines = 10
	// maxLineRunes caps one line of untrusted text.
	maxLineRunes = 300
)

// indent1 is the indentation of the parts of a test block; each level of
// nesting below it adds indentStep.
const indent1 = "    "

// render is the pretty reporter: test lines as tests finish, the summary
// when the run finishes.
func render(_ context.Context, s *sdk.RenderSession) error {
	r := &renderer{p: painter{color: s.Terminal.Color}, w: s.Primary, seen: map[string]bool{}}
	prog := newProgress(s.Progress, s.ProgressTerminal)
	for ev := range s.Events() {
		switch ev.Type {
		case report.EventRunStarted:
			prog.started(ev.Total, ev.Time)
		case report.EventTestStarted:
			prog.tick(ev.Time)
		case report.EventTestFinished:
			if ev.Test != nil {
				prog.clear()
				if err := r.test(ev.Test); err != nil {
					return err
				}
				prog.finished(ev.Test, ev.Time)
			}
		case report.EventRunFinished:
			prog.clear()
			if ev.Run != nil {
				return r.finish(ev.Run)
			}
		}
	}
	return sdk.ErrNoRunFinished
}

// renderer holds the state of one render.
type renderer struct {
	p painter
	w io.Writer
	// seen records the tests already printed, so a run_finished report
	// that holds tests never announced one by one still shows them.
	seen map[string]bool
	// notStarted counts the tests -x/--max-failures kept from starting,
	// told in one line at the end rather than one line each; stopReason
	// is why.
	notStarted int
	stopReason string
}

// test prints one finished test.
func (r *renderer) test(t *report.Test) error {
	r.seen[testKey(t)] = true
	if r.stoppedEarly(t) {
		return nil
	}
	var b strings.Builder
	r.writeTest(&b, t)
	return r.write(b.String())
}

func (r *renderer) write(s string) error {
	if _, err := io.WriteString(r.w, s); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// stoppedEarly counts a test that fail-fast kept from starting; such
// tests are summed up in one line (a long suite stopped at its first
// failure would otherwise print a line for every test it skipped).
func (r *renderer) stoppedEarly(t *report.Test) bool {
	if t.Status != report.StatusSkipped || t.Error == nil || t.Error.Kind != report.ErrorKindFailFast {
		return false
	}
	r.notStarted++
	r.stopReason = t.Error.Message
	return true
}

func testKey(t *report.Test) string { return t.ID + "\x00" + t.Name }

// writeTest writes the status line of a test and, unless it passed, why.
func (r *renderer) writeTest(b *strings.Builder, t *report.Test) {
	l := labelFor(t.Status)
	b.WriteString(r.p.paint(l.st, l.mark+" "+fmt.Sprintf("%-5s", l.word)))
	b.WriteString(" ")
	b.WriteString(r.p.line(plain, textsafe.Truncate(t.Name, maxLineRunes)))
	if kindShown[t.Block] && t.File != "" {
		// The blocks whose tests do not call a tool say what they are.
		b.WriteString(" " + r.p.paint(dim, "["+kindLabel[t.Block]+"]"))
	}
	if (t.Status != report.StatusSkipped && t.Status != report.StatusDeferred) || t.DurationMS > 0 {
		b.WriteString(" " + r.p.paint(dim, "("+formatMS(t.DurationMS)+")"))
	}
	b.WriteString(r.slowMark(t))
	b.WriteString("\n")
	r.writeEval(b, indent1, t.Eval)

	if t.Status == report.StatusPassed {
		return
	}
	for i := range t.Assertions {
		a := &t.Assertions[i]
		switch a.Status {
		case report.StatusFailed, report.StatusErrored:
			r.writeAssertion(b, a)
			r.writeEval(b, indent1+indentStep, a.Eval)
		case report.StatusDeferred:
			// A model-graded assertion whose judge has no key: neither
			// passed nor failed, and the reader should know it was not
			// judged.
			r.writeDeferred(b, a)
		}
	}
	r.writeScore(b, t)
	if t.Error != nil {
		label := "error"
		if t.Status == report.StatusSkipped || t.Status == report.StatusDeferred {
			label = "reason"
		}
		msg := t.Error.Message
		if t.Error.Kind != "" {
			msg = t.Error.Kind + ": " + msg
		}
		r.writeField(b, indent1, label, msg, len(label))
	}
	if t.Status == report.StatusFailed || t.Status == report.StatusWarned || t.Status == report.StatusErrored {
		if t.Agent != nil {
			r.writeTrajectory(b, indent1, t.Agent)
		}
		r.writeStderr(b, indent1, t.Stderr)
		r.writeFrames(b, indent1, t.Frames)
	}
}

// framesShown is how many of a failed test's wire frames are shown; the
// JSON report keeps them all.
const framesShown = 4

// writeFrames writes the last frames of the call, one compact line each, so
// a failure shows what was really sent and received.
func (r *renderer) writeFrames(b *strings.Builder, ind string, frames []report.Frame) {
	if len(frames) == 0 {
		return
	}
	head := "wire:"
	if len(frames) > framesShown {
		head = fmt.Sprintf("wire (last %d of %d frames):", framesShown, len(frames))
		frames = frames[len(frames)-framesShown:]
	}
	b.WriteString(ind + r.p.paint(dim, head) + "\n")
	for _, f := range frames {
		arrow := "←"
		if f.Direction == "send" {
			arrow = "→"
		}
		text := textsafe.CleanLine(string(f.Data))
		b.WriteString(ind + "  " + r.p.paint(dim, arrow) + " " + r.p.line(plain, textsafe.Truncate(text, maxLineRunes)) + "\n")
	}
}

// writeStderr writes the tail of a process's stderr, one line per line.
func (r *renderer) writeStderr(b *strings.Builder, ind, stderr string) {
	lines, dropped := textsafe.LastLines(textsafe.Clean(stderr), stderrLines)
	if len(lines) == 0 {
		return
	}
	head := "stderr:"
	if dropped > 0 {
		head = fmt.Sprintf("stderr (last %d lines):", len(lines))
	}
	b.WriteString(ind + r.p.paint(dim, head) + "\n")
	for _, l := range lines {
		b.WriteString(ind + "  " + r.p.paint(dim, "│") + " " + r.p.line(plain, textsafe.Truncate(l, maxLineRunes)) + "\n")
	}
}

// finish prints the tests not yet shown, the run-level errors and the
// summary line.
func (r *renderer) finish(run *report.Run) error {
	var b strings.Builder
	for i := range run.Tests {
		t := &run.Tests[i]
		if !r.seen[testKey(t)] {
			r.seen[testKey(t)] = true
			if !r.stoppedEarly(t) {
				r.writeTest(&b, t)
			}
		}
	}
	if r.notStarted > 0 {
		b.WriteString("\n" + r.p.paint(yellow, fmt.Sprintf("%d test(s) not started: %s", r.notStarted,
			strings.TrimPrefix(r.stopReason, "not started: "))) + "\n")
	}
	if len(run.Errors) > 0 {
		b.WriteString("\n" + r.p.paint(yellow, "run errors:") + "\n")
		for _, e := range run.Errors {
			r.writeRunError(&b, e)
		}
	}
	if failed := failedHooks(run); len(failed) > 0 {
		// Failed after hooks fail no test, so this is the only place a
		// reader sees them.
		b.WriteString("\n" + r.p.paint(yellow, "hook failures:") + "\n")
		for _, e := range failed {
			r.writeRunError(&b, e)
		}
	}
	r.writeVersions(&b, run)
	r.writeTrials(&b, run)
	r.writeCosts(&b, run)
	r.writeLatency(&b, run)
	b.WriteString("\n" + r.summary(run) + "\n")
	return r.write(b.String())
}

// failedHooks lists the run's failed hook steps (run-level, then each
// test's), shaped as run errors for writeRunError.
func failedHooks(run *report.Run) []report.RunError {
	var out []report.RunError
	add := func(h report.Hook, test string) {
		if h.Status == report.StatusPassed {
			return
		}
		name := h.Phase + " " + strconv.Quote(h.Command)
		if test != "" {
			name += " (test " + strconv.Quote(test) + ")"
		}
		out = append(out, report.RunError{Source: "hook", Name: name, Message: h.Error, StderrTail: h.Stderr})
	}
	for _, h := range run.Hooks {
		add(h, "")
	}
	for i := range run.Tests {
		for _, h := range run.Tests[i].Hooks {
			add(h, run.Tests[i].Name)
		}
	}
	return out
}

// writeRunError writes one problem of the run itself.
func (r *renderer) writeRunError(b *strings.Builder, e report.RunError) {
	who := e.Source
	if e.Name != "" {
		who += " " + e.Name
	}
	b.WriteString("  " + r.p.paint(yellow, "!") + " " + r.p.line(bold, who) + ": ")
	msg := textsafe.Clean(e.Message)
	if first, rest, multi := strings.Cut(msg, "\n"); multi {
		b.WriteString(r.p.line(plain, textsafe.Truncate(first, maxLineRunes)) + "\n")
		for _, l := range capLines(strings.Split(rest, "\n"), stderrLines) {
			b.WriteString("      " + r.p.line(plain, textsafe.Truncate(l, maxLineRunes)) + "\n")
		}
	} else {
		b.WriteString(r.p.line(plain, textsafe.Truncate(msg, maxLineRunes)) + "\n")
	}
	r.writeStderr(b, "    ", e.StderrTail)
}

// kindShown are the blocks whose tests the pretty lines label with their
// kind, and kindLabel the labels.
var (
	kindShown = map[string]bool{"lists": true, "completions": true, "compliance": true}
	kindLabel = map[string]string{"lists": "list", "completions": "completion", "compliance": "compliance"}
)

// summary is the final line: counts by status, total, wall time. Warnings
// (compliance tests that broke only SHOULD requirements) are counted apart
// from the failures, and only when there are some. A run a signal stopped
// leads with "interrupted:", so the counts are not read as a whole run.
func (r *renderer) summary(run *report.Run) string {
	s := run.Summary
	count := func(n int, word string, st style) string {
		text := fmt.Sprintf("%d %s", n, word)
		if n == 0 {
			return r.p.paint(dim, text)
		}
		return r.p.paint(st, text)
	}
	tests := "tests"
	if s.Total == 1 {
		tests = "test"
	}
	ms := run.DurationMS
	if ms == 0 {
		ms = s.DurationMS
	}
	parts := []string{
		count(s.Passed, "passed", green),
		count(s.Failed, "failed", red),
	}
	if s.Warned > 0 {
		parts = append(parts, count(s.Warned, "warned", yellow))
	}
	parts = append(parts, count(s.Errored, "errored", yellow), count(s.Skipped, "skipped", dim))
	if s.Deferred > 0 {
		parts = append(parts, count(s.Deferred, "deferred", yellow))
	}
	line := strings.Join(parts, ", ") + fmt.Sprintf(" (%d %s) in %s", s.Total, tests, formatSeconds(ms))
	if run.Interrupted() {
		line = r.p.paint(yellow, "interrupted:") + " " + line
	}
	return line
}

// capLines keeps the first n lines, noting how many were cut.
func capLines(lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	return append(lines[:n:n], fmt.Sprintf("… (%d more lines)", len(lines)-n))
}
