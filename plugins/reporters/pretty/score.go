package main

import (
	"math"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// writeScore writes, for a test that did not pass, its combined score
// against its threshold and its derived metrics, each gated one with its
// verdict and any reference that named nothing.
func (r *renderer) writeScore(b *strings.Builder, t *report.Test) {
	if t.Score != nil {
		s := formatScore(*t.Score)
		if t.Threshold != nil {
			s += " (threshold " + formatScore(*t.Threshold) + ")"
		}
		r.writeField(b, indent1, "score", s, len("metric"))
	}
	for _, m := range t.DerivedMetrics {
		s := m.Name + " " + formatScore(m.Value)
		if m.Threshold != nil {
			verdict := "passed"
			if m.Passed != nil && !*m.Passed {
				verdict = "failed"
			}
			s += " (threshold " + formatScore(*m.Threshold) + ", " + verdict + ")"
		}
		if len(m.Unresolved) > 0 {
			s += "; unknown references counted as 0: " + strings.Join(m.Unresolved, ", ")
		}
		r.writeField(b, indent1, "metric", s, len("metric"))
	}
}

// formatScore shows a score with at most three decimals.
func formatScore(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}
