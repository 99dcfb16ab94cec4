package main

import (
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// modelsView is the models the run's suites say they target
// (model_compatibility), cleaned for display; nil when they list none.
func modelsView(run *report.Run) []string {
	var out []string
	for _, m := range run.ModelCompatibility {
		out = append(out, textsafe.Clean(m))
	}
	return out
}
