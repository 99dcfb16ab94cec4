// Command otlp is mcptest's OpenTelemetry trace reporter plugin. It writes
// a finished run as OTLP/JSON: one ExportTraceServiceRequest, on one line,
// that an OpenTelemetry collector ingests as is (its otlpjsonfile
// receiver reads such lines; its OTLP/HTTP receiver accepts the same body
// with Content-Type application/json).
//
// The spans are the openinference reporter's, built by the same code
// (plugins/reporters/internal/spans): an mcptest.run root, one
// mcptest.test child per test, an mcptest.verdict evaluator under each
// judged test, with the same derived ids, times, statuses and attributes.
// Only the encoding differs.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "otlp"
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
		Reporters: map[string]sdk.Reporter{"otlp": sdk.FinalReporter(writeRequest)},
	}
}
