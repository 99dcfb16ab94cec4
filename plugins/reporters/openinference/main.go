// Command openinference is mcptest's trace export reporter plugin. It
// projects a finished run onto OpenInference/OpenTelemetry spans, written
// as JSONL with one self-describing span per line (schema_version
// mcptest.dev/openinference/v1): an mcptest.run root, one mcptest.test
// child per test, and an mcptest.verdict evaluator under each judged test.
// Trace and span ids are derived from the run id, so exporting the same
// run again yields the same ids and consumers can correlate runs. The
// tree itself is built by plugins/reporters/internal/spans, which the otlp
// reporter shares; this plugin only writes it as JSONL.
//
// The export is a neutral interchange file: collectors and eval platforms
// ingest it through their own import paths, so no vendor SDK is bundled.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "openinference"
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
		Reporters: map[string]sdk.Reporter{"openinference": sdk.FinalReporter(writeSpans)},
	}
}
