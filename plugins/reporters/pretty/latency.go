package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// slowMark follows the status line of a test that took longer than its
// suite's p95 latency budget (a soft budget: the verdict stands).
func (r *renderer) slowMark(t *report.Test) string {
	if !t.OverLatencyBudget() {
		return ""
	}
	return " " + r.p.paint(yellow, fmt.Sprintf("slow: %s, over the %d ms latency budget", formatMS(*t.LatencyMS), t.LatencyBudgetMS))
}

// writeLatency writes, for suites with a p95 latency budget, one line per
// suite file: the measured p95 against the budget.
func (r *renderer) writeLatency(b *strings.Builder, run *report.Run) {
	if len(run.Latency) == 0 {
		return
	}
	b.WriteString("\n" + r.p.paint(bold, "latency budgets (p95):") + "\n")
	for _, l := range run.Latency {
		verdict, st := "within budget", green
		if l.Breached {
			verdict, st = "over budget", yellow
		}
		text := fmt.Sprintf("p95 %s of %d ms over %d tests, %d slower than the budget: %s",
			formatMS(l.P95MS), l.BudgetMS, l.Tests, l.Over, verdict)
		b.WriteString("  " + r.p.line(plain, textsafe.Truncate(textsafe.CleanLine(l.File), maxLineRunes)) + "  " + r.p.paint(st, text) + "\n")
	}
}
