// Command exec is mcptest's bundled scorer plugin: it serves the scorer
// type "exec", an external grader run as a command.
//
// For each grading it starts the scorers: entry's command (never through a
// shell) with the entry's env overlaid on the environment and in its cwd,
// writes the envelope {input, output, criteria, metadata} to the
// command's stdin as one JSON document, closes stdin, and reads one JSON
// document from its stdout:
//
//	{"verdict": "pass" | "fail", "score": 0..1, "reasoning": "...", "cost_usd": 0.002 | null}
//
// verdict and score are required; reasoning is optional; cost_usd may be
// null or absent (the grader does not know its cost). The command runs in
// a process group of its own; when timeout_ms passes, or mcptest gives
// up, the whole group is killed, so nothing it spawned outlives it. A
// command that exits non-zero, prints no JSON (or more than 1 MiB), or
// answers without a verdict or score is an error quoting the last lines
// of its stderr.
package main

import "github.com/mcptest/mcptest/sdk"

// Identity of this plugin.
const (
	pluginName    = "exec"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

func newPlugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:    pluginName,
		Version: pluginVersion,
		Scorers: map[string]sdk.Scorer{"exec": &execScorer{}},
		// The command scores; the plugin never asks for model calls.
		Capabilities: []string{sdk.CapabilityNoHost},
	}
}
