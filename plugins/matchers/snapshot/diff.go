package main

import "github.com/mcptest/mcptest/plugins/matchers/internal/jsondiff"

// maxDiffOutputLines caps the lines of a snapshot diff.
const maxDiffOutputLines = 200

// diffText is a unified diff (3 lines of context) from the recorded text
// to the current one, labelled with the snapshot's path.
func diffText(recorded, current, name string) string {
	return jsondiff.Unified(recorded, current, jsondiff.Labels{From: name + " (recorded)", To: "current value"}, maxDiffOutputLines)
}
