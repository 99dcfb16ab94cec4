// Command agent is mcptest's reporter for coding agents (--reporter
// agent): the fewest tokens that let an agent act on a run. The first line
// is the verdict with the counts; then one block per failed or errored test
// with its assertion, the expected and actual values (trimmed; secrets are
// already masked by the host) and a command that re-runs exactly that
// test. Passed, warned, skipped and deferred tests are only counted.
// docs/agent-interface.md specifies the format; it is stable.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "agent"
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
		Reporters: map[string]sdk.Reporter{"agent": sdk.ReporterFunc(render)},
	}
}
