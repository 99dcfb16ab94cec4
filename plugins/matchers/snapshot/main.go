// Command snapshot is the mcptest matcher plugin for the snapshot matcher:
// the first run records the value at the assertion's target in a file
// beside the suite, and later runs compare the value with that recording.
//
// Argument shapes:
//
//	snapshot: "tools/echo/baseline"                      # the key
//	snapshot: {name: "tools/echo/baseline", update: true} # long form
//
// The key names a file under <suite_dir>/snapshots/: nested keys make
// folders, and ".json" is appended unless the last part of the key already
// has an extension. A key that would leave the snapshots folder (an
// absolute path, a ".." part) is refused as a suite error.
//
// A missing file is recorded and the assertion passes. An existing file is
// compared structurally (object key order and number spelling do not
// matter: 1 equals 1.0); a difference fails with the recorded and current
// values and a unified diff. With --update-snapshots (Options.
// UpdateSnapshots) or update: true, the file is rewritten and the
// assertion passes. Refusing --update-snapshots on CI is the CLI's job.
//
// Files hold the value as indented JSON with sorted keys and a final
// newline, whatever their extension, so they diff well in review. They are
// written to a temporary file and renamed into place, under a per-file
// lock, so concurrent assertions on one key never leave a torn file.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "snapshot"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition.
func newPlugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:     pluginName,
		Version:  pluginVersion,
		TuneGC:   true,
		Matchers: map[string]sdk.Matcher{matcherKey: newMatcher()},

		// Vetting only parses the argument: verdicts may be remembered.
		Capabilities: []string{sdk.CapabilityVetPure, sdk.CapabilityNoHost},
	}
}
