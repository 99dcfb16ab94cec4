package main

import (
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeEval writes a grade under its test or assertion: the headline
// (score on the rubric's scale, threshold, grader, calls, cost) always,
// so a passing eval still shows its score; the reason, criteria, tree
// walk and jurors when it failed or its graders split.
func (r *renderer) writeEval(b *strings.Builder, ind string, e *report.Eval) {
	if e == nil {
		return
	}
	st := green
	if !e.Passed {
		st = red
	}
	b.WriteString(ind + r.p.paint(st, "◆") + " " + r.p.line(plain, textsafe.Truncate(evaltext.Headline(e), 2*maxLineRunes)) + "\n")
	if e.Passed && !evaltext.Escalated(e) {
		return
	}
	for _, d := range evaltext.Details(e) {
		b.WriteString(ind + "  " + r.p.paint(dim, "│") + " " + r.p.line(plain, textsafe.Truncate(d, maxLineRunes)) + "\n")
	}
}

// writeCosts writes the run's cost line above the summary; nothing when
// nothing had a price.
func (r *renderer) writeCosts(b *strings.Builder, run *report.Run) {
	if c := evaltext.Costs(run.Costs); c != "" {
		b.WriteString("\n" + r.p.paint(bold, "cost:") + " " + r.p.line(plain, strings.TrimPrefix(c, "cost ")) + "\n")
	}
}

// writeDeferred writes an assertion left unjudged for want of a model
// key, with the variable to set.
func (r *renderer) writeDeferred(b *strings.Builder, a *report.Assertion) {
	b.WriteString(indent1 + r.p.paint(yellow, "~") + " " + r.p.line(plain, textsafe.Truncate(a.Target, maxLineRunes)) +
		" " + r.p.paint(dim, "›") + " " + r.p.line(bold, textsafe.Truncate(a.Matcher, maxLineRunes)) + r.p.paint(dim, " — deferred"))
	if a.Error != "" {
		b.WriteString(r.p.paint(dim, ": ") + r.p.line(plain, textsafe.Truncate(a.Error, maxLineRunes)))
	}
	b.WriteString("\n")
}
