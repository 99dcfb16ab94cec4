// Command badge is mcptest's status badge reporter plugin. It writes a
// shields.io endpoint document ({"schemaVersion":1,"label":...,
// "message":...,"color":...}) for the finished run; host the file (GitHub
// Pages, a gist, an artifact URL) and point
// https://img.shields.io/endpoint?url=... at it for a live README badge.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "badge"
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
		Reporters: map[string]sdk.Reporter{"badge": sdk.FinalReporter(writeBadge)},
	}
}
