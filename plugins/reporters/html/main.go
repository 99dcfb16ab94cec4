// Command html is mcptest's HTML reporter plugin (key "html"). Once the
// run has finished it writes one self-contained HTML page: a header with
// the verdict and the counts, the servers and the run's own errors, and
// every test with its assertions, structured failures, error, server
// stderr and captured JSON-RPC frames. Status, tag and text filters run in
// the browser and can be preset from the URL fragment, for example
// report.html#status=failed,errored&tag=smoke.
//
// The page loads nothing: its stylesheet and script are inline and pinned
// by a Content-Security-Policy that forbids every fetch. All text is
// escaped by html/template after control characters are stripped, and the
// canonical JSON report is embedded in a <script type="application/json">
// element, so the file can be turned back into the report it came from.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "html"
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
		Reporters: map[string]sdk.Reporter{"html": sdk.FinalReporter(writeHTML)},
	}
}
