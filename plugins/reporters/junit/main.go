// Command junit is mcptest's JUnit XML reporter plugin. Once the run has
// finished it writes one <testsuites> document that validates against the
// Apache Ant JUnit schema (the windyroad XSD most CI systems accept):
//
//   - one <testsuite> per suite file and block ("suites/smoke.yml tools"),
//     in the order the tests appear in the report;
//   - one <testcase> per test, classname "<file>.<block>", name the test's
//     name, time in seconds;
//   - failed tests carry <failure type="<matcher>">, errored tests
//     <error type="<error kind>">, skipped tests <skipped>, each with a
//     readable body;
//   - score, threshold, tags, protocol version and compliance check fields
//     go into the suite's <properties> as "test[<name>].<field>", because
//     the schema allows properties only on a suite;
//   - servers' stderr goes into the suite's <system-err>;
//   - run-level errors (a crashed plugin) become errored test cases of an
//     extra "mcptest" suite, because <testsuites> may hold nothing else.
//
// Text that came from a server or a plugin is stripped of escape sequences
// and of characters XML 1.0 forbids before it is escaped.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "junit"
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
		Reporters: map[string]sdk.Reporter{"junit": sdk.FinalReporter(writeReport)},
	}
}
