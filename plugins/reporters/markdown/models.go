package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// maxModels bounds how many model identifiers the header line lists.
const maxModels = 20

// writeModels writes the models the suites say they target
// (model_compatibility) on one line under the header; runs whose suites
// list none get nothing.
func writeModels(b *strings.Builder, run *report.Run) {
	if len(run.ModelCompatibility) == 0 {
		return
	}
	models := run.ModelCompatibility
	more := ""
	if len(models) > maxModels {
		more = fmt.Sprintf(" and %d more", len(models)-maxModels)
		models = models[:maxModels]
	}
	parts := make([]string, len(models))
	for i, m := range models {
		parts[i] = code(m, maxShortRunes, false)
	}
	b.WriteString("Model compatibility: " + strings.Join(parts, ", ") + more + "\n\n")
}
