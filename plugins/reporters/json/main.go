// Command json is mcptest's machine-readable reporter plugin. It writes the
// canonical run report (report.Run, described by schemas/report.v1.json)
// as indented JSON, followed by a newline, once the run has finished.
// `mcptest report run.json --format X` re-renders that document with any
// other reporter.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "json"
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
		Reporters: map[string]sdk.Reporter{"json": reporter()},
	}
}
