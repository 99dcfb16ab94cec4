// Command tap is mcptest's TAP reporter plugin. It writes the run as a TAP
// version 14 stream: one test point per test as each test finishes, a YAML
// diagnostic block under every failed or errored test, and the plan at the
// end (TAP 14 allows a trailing plan, which is what lets the output stream).
//
// Everything that came from a server or a plugin is stripped of escape
// sequences and control characters, and names are escaped as TAP 14
// requires, so no text can forge a test point, a directive or a bail out.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "tap"
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
		Reporters: map[string]sdk.Reporter{"tap": sdk.ReporterFunc(render)},
	}
}
