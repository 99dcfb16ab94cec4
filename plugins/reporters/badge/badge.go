package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// label is the badge's left-hand text.
const label = "mcptest"

// endpointSchema is the only schemaVersion shields.io's endpoint accepts.
const endpointSchema = 1

// The shields.io named colours in use. "critical" is shields' semantic
// alias of red; it marks a run that could not be fully carried out, so a
// consumer reading the JSON can tell it from plain failures.
const (
	colorPassed  = "brightgreen"
	colorWarned  = "yellow"
	colorFailed  = "red"
	colorErrored = "critical"
	colorNoTests = "lightgrey"
)

// badge is a shields.io endpoint document; only the required fields and
// the colour are written.
type badge struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// writeBadge writes the badge of run, followed by a newline.
func writeBadge(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	b := badgeFor(run)
	enc := json.NewEncoder(s.Primary)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return fmt.Errorf("encode badge: %w", err)
	}
	return nil
}

// badgeFor applies the rules, first match wins:
//
//   - the run was stopped by a signal (exit 130): "critical",
//     "interrupted", noting failures and the tests left skipped
//     ("interrupted, 3 skipped"), since the run did not pass and an
//     "error" would suggest a fault;
//   - a test errored or the run itself had errors: "critical", naming
//     the failed and errored counts ("2 failed, 1 errored", "run error");
//   - a test failed: "red", "3 failed";
//   - tests passed with warnings (compliance tests that broke only SHOULD
//     requirements, which do not fail the run): "yellow", "5 passed,
//     1 warning", noting skips;
//   - tests passed: "brightgreen", "5/5 passed", noting skips
//     ("4/4 passed, 1 skipped");
//   - nothing ran (no tests, or all skipped): "lightgrey", "no tests" or
//     "3 skipped".
//
// A run with --trials adds its flaky tests ("4/5 passed, 1 flaky").
//
// Counts come from the tests rather than the summary so the badge cannot
// disagree with the report's own list.
func badgeFor(run *report.Run) badge {
	var s report.Summary
	for i := range run.Tests {
		s.Add(run.Tests[i].Status)
	}
	b := badge{SchemaVersion: endpointSchema, Label: label}
	judged := s.Passed + s.Failed + s.Warned + s.Errored
	switch {
	case run.Interrupted():
		b.Color = colorErrored
		b.Message = "interrupted"
		if p := problems(s, 0); p != "" {
			b.Message += ", " + p
		}
		if s.Skipped > 0 {
			b.Message += ", " + strconv.Itoa(s.Skipped) + " skipped"
		}
	case s.Errored > 0 || len(run.Errors) > 0:
		b.Color = colorErrored
		b.Message = problems(s, len(run.Errors))
	case s.Failed > 0:
		b.Color = colorFailed
		b.Message = problems(s, 0)
	case s.Warned > 0:
		b.Color = colorWarned
		b.Message = strconv.Itoa(s.Passed) + " passed, " + plural(s.Warned, "warning")
		if s.Skipped > 0 {
			b.Message += ", " + strconv.Itoa(s.Skipped) + " skipped"
		}
	case judged > 0:
		b.Color = colorPassed
		b.Message = strconv.Itoa(s.Passed) + "/" + strconv.Itoa(judged) + " passed"
		if s.Skipped > 0 {
			b.Message += ", " + strconv.Itoa(s.Skipped) + " skipped"
		}
		if s.Deferred > 0 {
			b.Message += ", " + strconv.Itoa(s.Deferred) + " deferred"
		}
	case s.Deferred > 0:
		// Nothing was judged: a run of deferred agent tests is no pass.
		b.Color = colorNoTests
		b.Message = strconv.Itoa(s.Deferred) + " deferred"
	case s.Skipped > 0:
		b.Color = colorNoTests
		b.Message = strconv.Itoa(s.Skipped) + " skipped"
	default:
		b.Color = colorNoTests
		b.Message = "no tests"
	}
	// A run with --trials names its flaky tests: a green badge over
	// flaky tests would hide that the verdict depends on the trial.
	if tr := run.Trials; tr != nil && tr.Flaky > 0 {
		b.Message += ", " + strconv.Itoa(tr.Flaky) + " flaky"
	}
	// A merged report missing shards must not look like the whole run.
	if run.Partial != nil {
		b.Message += " (" + run.Partial.Text() + ")"
	}
	return b
}

// problems names what went wrong, leaving out zero counts.
func problems(s report.Summary, runErrors int) string {
	var parts []string
	if s.Failed > 0 {
		parts = append(parts, strconv.Itoa(s.Failed)+" failed")
	}
	if s.Errored > 0 {
		parts = append(parts, strconv.Itoa(s.Errored)+" errored")
	}
	if len(parts) == 0 && runErrors > 0 {
		parts = append(parts, "run error")
	}
	return strings.Join(parts, ", ")
}

// plural writes a count with its noun, adding "s" unless it is one.
func plural(n int, noun string) string {
	if n != 1 {
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}
