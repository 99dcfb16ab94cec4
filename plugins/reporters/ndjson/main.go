// Command ndjson is mcptest's streaming event reporter plugin. It writes
// every run event (run_started, test_started, test_finished, run_finished)
// as one compact JSON object per line, the moment the event arrives, so a
// consumer tailing the file sees each test as soon as it finishes rather
// than when the run ends.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "ndjson"
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
		Reporters: map[string]sdk.Reporter{"ndjson": sdk.ReporterFunc(render)},
	}
}
