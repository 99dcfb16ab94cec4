// Command pretty is mcptest's default human-readable reporter plugin. It
// prints one line per finished test as the run goes, the reasons for every
// failed or errored test (structured failures, errors, the server's stderr
// tail), and a summary when the run ends.
//
// Colour is used only when the host says the destination allows it
// (Terminal.Color); the plugin never inspects the environment itself.
// Everything that came from a server or a plugin is stripped of escape
// sequences and control characters before it is printed.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "pretty"
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
		Reporters: map[string]sdk.Reporter{"pretty": sdk.ReporterFunc(render)},
	}
}
