package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// writeTrials writes, for a run with --trials, pass@k and pass^k and a
// row per test that did not pass every trial. Other runs get nothing.
func writeTrials(b *strings.Builder, run *report.Run) {
	t := run.Trials
	if t == nil {
		return
	}
	verdict := "pass^k"
	if t.Pass == report.TrialsPassAny {
		verdict = "pass@k"
	}
	fmt.Fprintf(b, "### Trials\n\n%d trials per test: pass@%d %.1f%%, pass^%d %.1f%%, %d flaky (verdict: %s).\n\n",
		t.K, t.K, 100*t.PassAtK, t.K, 100*t.PassHatK, t.Flaky, verdict)
	var rows []string
	for _, tt := range t.Tests {
		if tt.PassHatK {
			continue
		}
		label := "failed every trial"
		if tt.Flaky {
			label = "flaky"
		}
		rows = append(rows, fmt.Sprintf("| %s | %d/%d | %s |\n", inline(tt.Name, maxShortRunes), tt.Passed, tt.Trials, label))
	}
	if len(rows) > 0 {
		b.WriteString("| Test | Passed | |\n| --- | ---: | --- |\n" + strings.Join(rows, "") + "\n")
	}
}
