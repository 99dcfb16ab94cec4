package main

import (
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Limits that keep a snapshot diff cheap to compute and short to read.
const (
	maxDiffInputLines  = 5000
	maxDiffOutputLines = 200
)

// diffText is a unified diff (3 lines of context) from the recorded text
// to the current one, labelled with the snapshot's path.
func diffText(recorded, current, name string) string {
	a, b := difflib.SplitLines(recorded), difflib.SplitLines(current)
	if len(a) > maxDiffInputLines || len(b) > maxDiffInputLines {
		return fmt.Sprintf("(not diffed: %d and %d lines exceed the %d-line limit)", len(a), len(b), maxDiffInputLines)
	}
	out, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: a, B: b, FromFile: name + " (recorded)", ToFile: "current value", Context: 3,
	})
	if err != nil {
		return fmt.Sprintf("(diff failed: %v)", err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > maxDiffOutputLines {
		more := len(lines) - maxDiffOutputLines
		lines = append(lines[:maxDiffOutputLines], fmt.Sprintf("… (%d more diff lines)", more))
	}
	return strings.Join(lines, "\n")
}
