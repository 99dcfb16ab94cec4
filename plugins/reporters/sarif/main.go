// Command sarif is mcptest's SARIF 2.1.0 reporter plugin, for code
// scanning dashboards such as GitHub's. Once the run has finished it
// writes one SARIF log with a single run:
//
//   - tool.driver is mcptest, at the version recorded in the report;
//   - every compliance check seen in the run is a rule (ruleId = check
//     ID, level error for MUST and warning for SHOULD), whether it passed
//     or not; every rule has a name, descriptions and help, as code
//     scanning services require;
//   - a test that failed only a SHOULD requirement (a warning, which does
//     not fail the run) gives results of level warning, never error;
//   - every failed assertion of a failed test is a result: a compliance
//     test's under its check's rule, any other under
//     "mcptest/assertion/<matcher>"; a failed test without a failed
//     assertion is "mcptest/test-failed" and a test that could not be
//     judged is "mcptest/test-errored";
//   - each result points at the test in its suite file (relative to
//     SRCROOT, the directory mcptest ran in) and carries a stable
//     fingerprint;
//   - run-level errors (a crashed plugin) are tool execution
//     notifications, and make the invocation unsuccessful;
//   - automationDetails names the analysis: mcptest/<run id>, or inside
//     an Azure Pipelines job the build, as Azure DevOps requires.
//
// Passing and skipped tests give no results. Text that came from a server
// or a plugin is stripped of escape sequences and control characters.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "sarif"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition.
func newPlugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:      pluginName,
		Version:   pluginVersion,
		TuneGC:    true,
		Reporters: map[string]sdk.Reporter{"sarif": sdk.FinalReporter(writeReport)},
	}
}
