package main

import (
	"fmt"
	"io"

	"github.com/mcptest/mcptest/sdk/report"
)

// progress keeps a one-line live counter on stderr while tests run. It is
// drawn only when stderr is a terminal that understands cursor control
// (the host reports a TERM=dumb terminal as not one): in a CI log a line
// rewritten with carriage returns is noise.
type progress struct {
	w       io.Writer
	on      bool
	total   int
	done    int
	failed  int
	warned  int
	errored int
	drawn   bool
}

func newProgress(w io.Writer, isTTY bool) *progress { return &progress{w: w, on: isTTY && w != nil} }

// clear erases the counter before other output is written.
func (p *progress) clear() {
	if p.on && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// started records the planned total.
func (p *progress) started(total int) { p.total = total }

// finished counts a test and redraws the counter.
func (p *progress) finished(t *report.Test) {
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
	fmt.Fprint(p.w, "\r\x1b[K"+line)
	p.drawn = true
}
