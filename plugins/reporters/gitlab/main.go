// Command gitlab is mcptest's GitLab Code Quality reporter plugin. Once
// the run has finished it writes a JSON array of Code Quality issues, the
// format GitLab shows in merge requests (artifacts:reports:codequality):
//
//   - every failed assertion of a failed test is an issue; a failed test
//     without a failed assertion, and a test that could not be judged,
//     are one issue each;
//   - check_name is the compliance check's ID ("J04") for compliance
//     tests, "mcptest/assertion/<matcher>" for other failed assertions,
//     "mcptest/test-failed" or "mcptest/test-errored" otherwise;
//   - severity: a failed MUST check is critical, a failed SHOULD check
//     minor, any other failed test major, anything that could not be
//     judged (and a run-level error) blocker;
//   - location is the suite file and the test's line; the fingerprint is
//     the sha256 of the test ID and assertion index, so it stays the same
//     from run to run and GitLab can tell new issues from fixed ones;
//   - run-level errors (a crashed plugin) are blocker issues on line 1 of
//     the first suite file.
//
// Passing and skipped tests give no issues; a clean run writes []. Text
// that came from a server or a plugin is stripped of escape sequences and
// control characters.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "gitlab"
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
		Reporters: map[string]sdk.Reporter{"gitlab": sdk.FinalReporter(writeReport)},
	}
}
