package main

import (
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// addModelProperties records the models the suites say they target
// (model_compatibility) as one property, the identifiers joined by ", ":
// a consumer that reads properties into a map by name keeps them all.
func addModelProperties(p *propertiesXML, run *report.Run) {
	if len(run.ModelCompatibility) == 0 {
		return
	}
	models := make([]string, len(run.ModelCompatibility))
	for i, m := range run.ModelCompatibility {
		models[i] = textsafe.CleanLineTrim(m)
	}
	p.add("mcptest.model_compatibility", strings.Join(models, ", "))
}
