package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// Limits that keep the output small whatever the run holds.
const (
	// valueRunes caps expected, actual and messages.
	valueRunes = 300
	// maxListed caps the failure blocks; the rest are counted on one
	// line.
	maxListed = 50
	// statusDeferred is the status of a test that could not run for want
	// of a model key; counted when a report has it.
	statusDeferred = "deferred"
)

// render waits for the final report: the output is a summary, so nothing
// is written while tests run.
func render(_ context.Context, s *sdk.RenderSession) error {
	for ev := range s.Events() {
		if ev.Type == report.EventRunFinished && ev.Run != nil {
			w := bufio.NewWriter(s.Primary)
			write(w, ev.Run)
			return w.Flush()
		}
	}
	return sdk.ErrNoRunFinished
}

// counts are the run's tests by status.
type counts struct {
	total, passed, failed, errored, warned, skipped, deferred int
}

func count(run *report.Run) counts {
	var c counts
	for _, t := range run.Tests {
		c.total++
		switch t.Status {
		case report.StatusPassed:
			c.passed++
		case report.StatusFailed:
			c.failed++
		case report.StatusErrored:
			c.errored++
		case report.StatusWarned:
			c.warned++
		case report.StatusSkipped:
			c.skipped++
		case statusDeferred:
			c.deferred++
		}
	}
	return c
}

// verdict is pass, warn, fail or error. It follows the exit code, so it
// never disagrees with it: 2 and 130 are error, 1 is fail; 0 is warn when
// a test warned or was deferred, else pass.
func verdict(run *report.Run, c counts) string {
	switch {
	case run.ExitCode == 2 || run.ExitCode == 130:
		return "error"
	case run.ExitCode != 0:
		return "fail"
	case c.warned > 0 || c.deferred > 0:
		return "warn"
	}
	return "pass"
}

// write renders the run.
func write(w io.Writer, run *report.Run) {
	c := count(run)
	fmt.Fprintf(w, "VERDICT %s %d/%d passed", verdict(run, c), c.passed, c.total)
	for _, n := range []struct {
		n    int
		name string
	}{{c.failed, "failed"}, {c.errored, "errored"}, {c.warned, "warned"}, {c.skipped, "skipped"}, {c.deferred, "deferred"}} {
		if n.n > 0 {
			fmt.Fprintf(w, ", %d %s", n.n, n.name)
		}
	}
	fmt.Fprintf(w, " exit=%d\n", run.ExitCode)
	if tr := evaltext.Trials(run.Trials); tr != "" {
		fmt.Fprintf(w, "TRIALS %s\n", line(strings.TrimPrefix(tr, "trials: ")))
	}
	if c := evaltext.Costs(run.Costs); c != "" {
		fmt.Fprintf(w, "COST %s\n", line(strings.TrimPrefix(c, "cost ")))
	}
	for _, e := range run.Errors {
		fmt.Fprintf(w, "RUNERROR %s\n", line(e.Message))
	}
	listed := 0
	for i := range run.Tests {
		t := &run.Tests[i]
		if t.Status != report.StatusFailed && t.Status != report.StatusErrored {
			continue
		}
		if listed == maxListed {
			fmt.Fprintf(w, "MORE %d failed or errored tests not listed\n", c.failed+c.errored-listed)
			return
		}
		listed++
		writeTest(w, t)
	}
}

// writeTest writes one failed or errored test.
func writeTest(w io.Writer, t *report.Test) {
	head := "FAIL"
	if t.Status == report.StatusErrored {
		head = "ERROR"
	}
	fmt.Fprintf(w, "%s %s\n", head, line(t.ID))
	if t.File != "" && t.Line > 0 {
		fmt.Fprintf(w, "  at: %s:%d\n", line(t.File), t.Line)
	}
	if t.Error != nil {
		fmt.Fprintf(w, "  error: %s: %s\n", line(t.Error.Kind), line(t.Error.Message))
	}
	writeEval(w, t.Eval)
	for i := range t.Assertions {
		writeAssertion(w, &t.Assertions[i])
	}
	if t.File != "" {
		// Evals run under their own subcommand; mcptest run skips them.
		cmd := "run"
		if t.Block == "evals" {
			cmd = "eval"
		}
		fmt.Fprintf(w, "  repro: mcptest %s %s --id %s\n", cmd, shellQuote(t.File), shellQuote(t.ID))
	}
}

// writeAssertion writes a failed, errored or deferred assertion (members
// of a failed assert-set included); passed ones are left out.
func writeAssertion(w io.Writer, a *report.Assertion) {
	if a.Status == report.StatusDeferred {
		// Not judged for want of a model key: the agent should know.
		fmt.Fprintf(w, "  deferred: %s %s: %s\n", line(a.Target), line(a.Matcher), line(a.Error))
		return
	}
	if a.Status != report.StatusFailed && a.Status != report.StatusErrored {
		return
	}
	fmt.Fprintf(w, "  assert: %s %s", line(a.Target), line(a.Matcher))
	if a.Message != "" {
		fmt.Fprintf(w, ": %s", line(a.Message))
	}
	w.Write([]byte("\n"))
	if a.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", line(a.Error))
	}
	for _, f := range failtext.Fields(a.Failure) {
		switch f.Name {
		case "expected", "actual", "diff", "path":
			fmt.Fprintf(w, "  %s: %s\n", f.Name, line(f.Value))
		}
	}
	writeEval(w, a.Eval)
	for i := range a.Assertions {
		writeAssertion(w, &a.Assertions[i])
	}
}

// writeEval writes a failed grade: its headline, then its reason and the
// criteria, tree steps and jurors, one line each.
func writeEval(w io.Writer, e *report.Eval) {
	if e == nil {
		return
	}
	fmt.Fprintf(w, "  eval: %s\n", line(evaltext.Headline(e)))
	for _, d := range evaltext.Details(e) {
		fmt.Fprintf(w, "  eval.%s\n", line(d))
	}
}

// line makes a value safe and short on one line: control characters and
// escape sequences removed, newlines shown as \n, cut to valueRunes.
func line(s string) string {
	s = strings.ReplaceAll(textsafe.Clean(s), "\n", `\n`)
	return textsafe.Truncate(textsafe.CleanLineTrim(s), valueRunes)
}

// shellQuote quotes a word for a POSIX shell when it needs it. A word
// holding control characters or escape sequences (which must not reach a
// terminal, yet are part of an id) is written in the $'...' form of bash
// and zsh with those bytes as \xNN, so the command still selects the
// exact id.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	if !strings.ContainsFunc(s, textsafe.IsUnsafe) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for _, r := range s {
		switch {
		case r == '\\' || r == '\'':
			b.WriteString(`\` + string(r))
		case textsafe.IsUnsafe(r):
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString("'")
	return b.String()
}
