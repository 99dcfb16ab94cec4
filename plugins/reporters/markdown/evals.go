package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/sdk/report"
)

// graded is one row of the evals table: a test of the evals block (its
// grade nil when deferred), or a judged assertion of another test.
type graded struct {
	test      *report.Test
	assertion *report.Assertion
	eval      *report.Eval
}

// gradedRows lists the run's grades in report order.
func gradedRows(run *report.Run) []graded {
	var out []graded
	for i := range run.Tests {
		t := &run.Tests[i]
		if t.Eval != nil || t.Block == "evals" {
			out = append(out, graded{test: t, eval: t.Eval})
		}
		for j := range t.Assertions {
			if a := &t.Assertions[j]; a.Eval != nil {
				out = append(out, graded{test: t, assertion: a, eval: a.Eval})
			}
		}
	}
	return out
}

// writeEvals writes the "Evals" section: one row per grade with its
// verdict, score on the rubric's scale, threshold, grader, calls and
// cost, then the run's total cost. Runs without grades or costs get
// nothing.
func writeEvals(b *strings.Builder, run *report.Run, maxRows int) {
	rows := gradedRows(run)
	if len(rows) > 0 {
		fmt.Fprintf(b, "### Evals (%d)\n\n", len(rows))
		b.WriteString("| Verdict | Eval | Score | Threshold | Graded by | Calls | Cost |\n| --- | --- | ---: | ---: | --- | ---: | ---: |\n")
		shown := rows
		if maxRows >= 0 && len(rows) > maxRows {
			shown = rows[:maxRows]
		}
		for _, g := range shown {
			name := inline(g.test.Name, maxNameRunes)
			if g.assertion != nil {
				name += " › " + code(g.assertion.Matcher, maxShortRunes, true)
			}
			e := g.eval
			if e == nil {
				reason := ""
				if g.test.Error != nil {
					reason = inline(g.test.Error.Message, maxReasonRunes)
				}
				fmt.Fprintf(b, "| %s | %s | — | — | %s | 0 | — |\n", statusLabel(g.test.Status), name, reason)
				continue
			}
			label := "✅ passed"
			if !e.Passed {
				label = "❌ failed"
			}
			if evaltext.Escalated(e) {
				label += " (split)"
			}
			calls := fmt.Sprint(e.Calls)
			switch {
			case e.Cached:
				calls += " (cached)"
			case e.CachedCalls > 0:
				calls += fmt.Sprintf(" (%d cached)", e.CachedCalls)
			}
			grader := evaltext.Grader(e)
			if c := evaltext.Cell(e); c != "" {
				grader += " · " + c
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", label, name, inline(evaltext.Score(e), maxShortRunes),
				inline(evaltext.Threshold(e), maxShortRunes), inline(grader, maxReasonRunes), calls, inline(evaltext.Cost(e.CostUSD), maxShortRunes))
		}
		if len(shown) < len(rows) {
			fmt.Fprintf(b, "\n… and %d more; see the full report.\n", len(rows)-len(shown))
		}
		b.WriteString("\n")
	}
	if c := evaltext.Costs(run.Costs); c != "" {
		b.WriteString("**Cost:** " + inline(strings.TrimPrefix(c, "cost "), maxReasonRunes*2) + "\n\n")
	}
}

// writeEvalDetails writes a grade's headline and details in a text block,
// under the test or assertion it belongs to.
func writeEvalDetails(b *strings.Builder, e *report.Eval) {
	if e == nil {
		return
	}
	lines := append([]string{evaltext.Headline(e)}, evaltext.Details(e)...)
	b.WriteString(codeBlock("text", truncateLines(strings.Join(lines, "\n"))) + "\n")
}

// evalReason is the one-line reason of a failed grade for the table of
// tests that did not pass.
func evalReason(e *report.Eval) string {
	s := "eval score " + evaltext.Score(e) + " (threshold " + evaltext.Threshold(e) + ")"
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return inline(s, maxReasonRunes)
}
