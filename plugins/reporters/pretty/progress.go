package main

import (
	"fmt"
	"io"
	"time"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// progress keeps a one-line live counter on stderr while tests run: tests
// done of the total, failures so far, time elapsed and an estimate of the
// time left. It is drawn only on a terminal that takes cursor control and
// colour: not in a pipe or CI log (a line rewritten with carriage returns
// is noise there), not for TERM=dumb (the host reports it as no terminal),
// and not when colour is off (NO_COLOR, --no-color), which users set to
// ask for plain, append-only output.
type progress struct {
	w       io.Writer
	on      bool
	width   int
	total   int
	done    int
	failed  int
	warned  int
	errored int
	start   time.Time
	drawn   bool
	// drawnAt is the time the line shows as elapsed.
	drawnAt time.Time
}

func newProgress(w io.Writer, term sdk.Terminal) *progress {
	return &progress{w: w, on: term.IsTTY && term.Color && w != nil, width: term.Width}
}

// clear erases the counter before other output is written, so a test
// line never lands in the middle of it.
func (p *progress) clear() {
	if p.on && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// started records the planned total and when the run began.
func (p *progress) started(total int, at time.Time) { p.total, p.start = total, at }

// finished counts a test and redraws the counter; at is when the test
// finished, which sets the elapsed time.
func (p *progress) finished(t *report.Test, at time.Time) {
	p.done++
	switch t.Status {
	case report.StatusFailed:
		p.failed++
	case report.StatusWarned:
		p.warned++
	case report.StatusErrored:
		p.errored++
	}
	if !p.on {
		return
	}
	p.draw(at)
}

// tick redraws the counter when a test starts, at most once a second of
// run time, so the elapsed time moves while a slow test runs.
func (p *progress) tick(at time.Time) {
	if !p.on || !p.drawn || at.Sub(p.drawnAt) < time.Second {
		return
	}
	p.draw(at)
}

// draw writes the counter in place of the previous one.
func (p *progress) draw(at time.Time) {
	line := p.line(at)
	// A line wider than the terminal wraps, and \r then rewrites only its
	// last row: cut it to fit.
	if p.width > 1 && len([]rune(line)) > p.width-1 {
		line = string([]rune(line)[:p.width-1])
	}
	fmt.Fprint(p.w, "\r\x1b[K"+line)
	p.drawn, p.drawnAt = true, at
}

// line renders the counter.
func (p *progress) line(at time.Time) string {
	line := fmt.Sprintf("running: %d", p.done)
	if p.total > 0 {
		line = fmt.Sprintf("running: %d/%d", p.done, p.total)
	}
	if p.failed > 0 {
		line += fmt.Sprintf(", %d failed", p.failed)
	}
	if p.warned > 0 {
		line += fmt.Sprintf(", %d warned", p.warned)
	}
	if p.errored > 0 {
		line += fmt.Sprintf(", %d errored", p.errored)
	}
	if p.start.IsZero() || at.IsZero() {
		return line
	}
	elapsed := max(at.Sub(p.start), 0)
	line += " · " + clock(elapsed) + " elapsed"
	// The estimate assumes the remaining tests take as long as the average
	// so far: rough, but it moves the right way and costs nothing.
	if left := p.total - p.done; left > 0 && p.done > 0 {
		eta := time.Duration(int64(elapsed) / int64(p.done) * int64(left))
		line += ", ~" + clock(eta) + " left"
	}
	return line
}

// clock renders a duration as m:ss, or h:mm:ss past an hour.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
