package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// writeLatency writes, for suites with a p95 latency budget, the measured
// p95 against the budget. Other runs get nothing.
func writeLatency(b *strings.Builder, run *report.Run) {
	if len(run.Latency) == 0 {
		return
	}
	b.WriteString("### Latency budgets (p95)\n\n")
	b.WriteString("| Suite | p95 | Budget | Tests | Slower than the budget | Verdict |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | --- |\n")
	for _, l := range run.Latency {
		verdict := "within budget"
		if l.Breached {
			verdict = "**over budget**"
		}
		fmt.Fprintf(b, "| %s | %.0f ms | %d ms | %d | %d | %s |\n", code(l.File, maxShortRunes, true), l.P95MS, l.BudgetMS, l.Tests, l.Over, verdict)
	}
	b.WriteString("\n")
}
