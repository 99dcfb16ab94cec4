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

// render streams the run as TAP: the version line first, a test point as
// each test finishes, then the tests only the final report holds, the
// run-level problems as comments, and the plan.
func render(_ context.Context, s *sdk.RenderSession) error {
	w := &writer{w: s.Primary, seen: map[string]bool{}}
	for ev := range s.Events() {
		switch ev.Type {
		case report.EventRunStarted:
			if err := w.begin(); err != nil {
				return err
			}
		case report.EventTestFinished:
			if ev.Test != nil {
				if err := w.test(ev.Test); err != nil {
					return err
				}
			}
		case report.EventRunFinished:
			if ev.Run != nil {
				return w.finish(ev.Run)
			}
		}
	}
	return sdk.ErrNoRunFinished
}

// writer holds the state of one TAP stream.
type writer struct {
	w io.Writer
	// started is set once the version line is out.
	started bool
	// n is the number of the last test point written.
	n int
	// seen records the tests already written, so a run_finished report
	// holding tests never announced one by one still lists each once.
	seen map[string]bool
}

// begin writes the version line, which must come first, once.
func (w *writer) begin() error {
	if w.started {
		return nil
	}
	w.started = true
	return w.write("TAP version 14\n")
}

// test writes one finished test.
func (w *writer) test(t *report.Test) error {
	if err := w.begin(); err != nil {
		return err
	}
	w.seen[testKey(t)] = true
	w.n++
	return w.write(testPoint(w.n, t))
}

// finish writes the remaining tests, the run's own errors and a summary as
// comments, and the plan, which closes the stream.
func (w *writer) finish(run *report.Run) error {
	if err := w.begin(); err != nil {
		return err
	}
	var b strings.Builder
	for i := range run.Tests {
		t := &run.Tests[i]
		if !w.seen[testKey(t)] {
			w.seen[testKey(t)] = true
			w.n++
			b.WriteString(testPoint(w.n, t))
		}
	}
	// Run-level problems are no test's result, so they are comments:
	// a bail out would tell the consumer to discard the tests that ran.
	for _, e := range run.Errors {
		b.WriteString(comment(runErrorText(e)))
	}
	for _, v := range run.VersionSummaries {
		b.WriteString(comment(fmt.Sprintf("protocol %s: %d passed, %d failed, %s%d errored, %d skipped%s",
			v.ProtocolVersion, v.Passed, v.Failed, warned(v.Warned), v.Errored, v.Skipped, deferred(v.Deferred))))
	}
	for _, l := range run.Latency {
		verdict := "within budget"
		if l.Breached {
			verdict = "over budget"
		}
		b.WriteString(comment(fmt.Sprintf("latency %s: p95 %.0f ms of %d ms over %d tests, %d slower: %s",
			l.File, l.P95MS, l.BudgetMS, l.Tests, l.Over, verdict)))
	}
	b.WriteString(runEvalComments(run))
	s := run.Summary
	b.WriteString(comment(fmt.Sprintf("%d passed, %d failed, %s%d errored, %d skipped%s (%d tests)",
		s.Passed, s.Failed, warned(s.Warned), s.Errored, s.Skipped, deferred(s.Deferred), s.Total)))
	if w.n == 0 {
		b.WriteString("1..0 # SKIP no tests ran\n")
	} else {
		b.WriteString("1.." + strconv.Itoa(w.n) + "\n")
	}
	return w.write(b.String())
}

// warned is the warnings' part of a count line, present only when there
// are some: "1 warned, ".
func warned(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n) + " warned, "
}

// deferred is the deferred count of a summary comment ("" when none): a
// deferred agent test is its own count, never inside the passes.
func deferred(n int) string {
	if n == 0 {
		return ""
	}
	return ", " + strconv.Itoa(n) + " deferred"
}

// runErrorText is one run-level problem on one line.
func runErrorText(e report.RunError) string {
	who := e.Source
	if e.Name != "" {
		who += " " + e.Name
	}
	return "run error: " + who + ": " + e.Message
}

// comment renders untrusted text as one TAP comment line.
func comment(s string) string {
	return "# " + textsafe.Truncate(textsafe.CleanLineTrim(s), maxNameRunes*2) + "\n"
}

func (w *writer) write(s string) error {
	if _, err := io.WriteString(w.w, s); err != nil {
		return fmt.Errorf("write TAP: %w", err)
	}
	return nil
}

func testKey(t *report.Test) string { return t.ID + "\x00" + t.Name }
