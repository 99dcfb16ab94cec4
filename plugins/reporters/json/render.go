package main

import "github.com/mcptest/mcptest/sdk"

// reporter writes the run_finished report to the primary sink as the
// canonical report document (report.WriteCanonical): indented JSON with a
// trailing newline, HTML characters not escaped, so values read as the
// server sent them, and always satisfying schemas/report.v1.json. Being
// sdk.CanonicalReporter, it declares so, and mcptest writes the same
// document itself rather than start this plugin for it; the plugin still
// serves it to any host that asks.
func reporter() sdk.Reporter { return sdk.CanonicalReporter() }
