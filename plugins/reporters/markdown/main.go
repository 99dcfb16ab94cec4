// Command markdown is mcptest's Markdown reporter plugin (keys "markdown"
// and "md"). Once the run has finished it writes a GitHub-flavoured
// Markdown summary: the verdict, a table of counts, a table of the tests
// that did not pass with their first reason, the metric rollups when
// anything was scored, the run's own errors, and a collapsible block per
// failed or errored test with its structured failures and stderr.
//
// The same summary goes to the step-summary sink, which the host appends
// to $GITHUB_STEP_SUMMARY when that is set; the plugin never reads the
// environment itself. Every piece of text that came from a suite, a server
// or a plugin is stripped of control characters and escaped, so it shows
// as text and cannot change the document's structure.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "markdown"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition.
func newPlugin() *sdk.Plugin {
	r := sdk.FinalReporter(writeMarkdown)
	return &sdk.Plugin{
		Name:      pluginName,
		Version:   pluginVersion,
		TuneGC:    true,
		Reporters: map[string]sdk.Reporter{"markdown": r, "md": r},
	}
}
