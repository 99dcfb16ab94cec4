// Package jsondiff renders the unified diffs matcher failures carry:
// between two JSON texts (pretty-printed, so one member is one line) or two
// multi-line strings, kept cheap to compute and short to read.
package jsondiff

import (
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// MaxInputLines is the most lines per side a diff is computed for; larger
// texts get a one-line note instead.
const MaxInputLines = 5000

// Labels name the two sides in the diff's header lines.
type Labels struct {
	From, To string
}

// Unified is a unified diff (3 lines of context) from the text from to the
// text to, cut after maxOutputLines lines with a line saying how many more
// there were.
func Unified(from, to string, labels Labels, maxOutputLines int) string {
	a, b := difflib.SplitLines(from), difflib.SplitLines(to)
	if len(a) > MaxInputLines || len(b) > MaxInputLines {
		return fmt.Sprintf("(not diffed: %d and %d lines exceed the %d-line diff limit)", len(a), len(b), MaxInputLines)
	}
	out, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: a, B: b, FromFile: labels.From, ToFile: labels.To, Context: 3,
	})
	if err != nil {
		return fmt.Sprintf("(diff failed: %v)", err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > maxOutputLines {
		more := len(lines) - maxOutputLines
		lines = append(lines[:maxOutputLines], fmt.Sprintf("… (%d more diff lines)", more))
	}
	return strings.Join(lines, "\n")
}
