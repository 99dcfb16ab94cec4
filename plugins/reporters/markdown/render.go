package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// stepSummaryLimit is the most bytes written to the step summary. GitHub
// refuses a step summary over 1 MiB; a little room is left for whatever
// else the job appends.
const stepSummaryLimit = 1000 * 1000

// writeMarkdown writes the full document to the primary sink and the same
// summary, shortened only if it would not fit, to the step-summary sink.
func writeMarkdown(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	doc := document(run, fullDoc)
	if _, err := io.WriteString(s.Primary, doc); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if s.StepSummary == nil {
		return nil
	}
	if _, err := io.WriteString(s.StepSummary, stepSummary(run, doc, stepSummaryLimit)); err != nil {
		return fmt.Errorf("write step summary: %w", err)
	}
	return nil
}

// stepSummary returns full when it fits in limit bytes. Otherwise it drops
// the failure details, then halves the table of tests that did not pass
// until the document fits, saying so under the heading.
func stepSummary(run *report.Run, full string, limit int) string {
	if len(full) <= limit {
		return full
	}
	opt := docOptions{maxRows: -1, note: "Failure details are left out to fit GitHub's step summary limit; see the full report."}
	doc := document(run, opt)
	for rows := len(notPassed(run)); len(doc) > limit && rows > 0; {
		rows /= 2
		opt.maxRows = rows
		opt.note = "Shortened to fit GitHub's step summary limit; see the full report."
		doc = document(run, opt)
	}
	if len(doc) > limit {
		var b strings.Builder
		writeHeader(&b, run)
		b.WriteString("> The summary is too large for GitHub's step summary limit; see the full report.\n")
		return b.String()
	}
	return doc
}
