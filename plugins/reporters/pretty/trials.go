package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeTrials writes, for a run with --trials, pass@k and pass^k over the
// tests, which verdict the run used, and each flaky test. Other runs get
// nothing.
func (r *renderer) writeTrials(b *strings.Builder, run *report.Run) {
	t := run.Trials
	if t == nil {
		return
	}
	verdict := "pass^k: every trial must pass"
	if t.Pass == report.TrialsPassAny {
		verdict = "pass@k: one passing trial is enough"
	}
	fmt.Fprintf(b, "\n%s pass@%d %.1f%%, pass^%d %.1f%%, %d flaky %s\n", r.p.paint(bold, fmt.Sprintf("trials (%d per test):", t.K)),
		t.K, 100*t.PassAtK, t.K, 100*t.PassHatK, t.Flaky, r.p.paint(dim, "("+verdict+")"))
	for _, tt := range t.Tests {
		if tt.Flaky {
			b.WriteString("  " + r.p.paint(yellow, "flaky") + "  " + textsafe.Truncate(textsafe.CleanLine(tt.Name), maxLineRunes) +
				r.p.paint(dim, fmt.Sprintf("  · %d/%d trials passed", tt.Passed, tt.Trials)) + "\n")
		}
	}
}
