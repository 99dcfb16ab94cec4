// Package jsondiff renders the unified diffs matcher failures carry:
// between two JSON texts (pretty-printed, so one member is one line) or two
// multi-line strings, kept cheap to compute and short to read.
package jsondiff

import (
	"fmt"
	"strconv"
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
	out := strings.TrimSuffix(unifiedText(a, b, labels), "\n")
	if strings.Count(out, "\n") < maxOutputLines {
		return out
	}
	lines := strings.Split(out, "\n")
	if len(lines) > maxOutputLines {
		more := len(lines) - maxOutputLines
		lines = append(lines[:maxOutputLines], fmt.Sprintf("… (%d more diff lines)", more))
	}
	return strings.Join(lines, "\n")
}

// unifiedText writes the diff of the lines a and b (each ending in a
// newline, as difflib.SplitLines gives them) in the layout of difflib's
// WriteUnifiedDiff with three lines of context, byte for byte. It is
// written here because WriteUnifiedDiff formats every line through
// fmt.Sprintf and a fresh 4 KB bufio.Writer, the largest allocation of a
// failing exact assertion on a number or an object (a quarter of the
// bytes BenchmarkDirect100k allocates).
func unifiedText(a, b []string, labels Labels) string {
	if len(a) == 1 && len(b) == 1 {
		// One line a side (two numbers, two short values): the diff is
		// that line replaced, or nothing, without building the sequence
		// matcher's index of b.
		if a[0] == b[0] {
			return ""
		}
		var sb strings.Builder
		sb.Grow(len(labels.From) + len(labels.To) + len(a[0]) + len(b[0]) + 24)
		writeHeader(&sb, labels)
		sb.WriteString("@@ -1 +1 @@\n-")
		sb.WriteString(a[0])
		sb.WriteByte('+')
		sb.WriteString(b[0])
		return sb.String()
	}
	groups := difflib.NewMatcher(a, b).GetGroupedOpCodes(3)
	if len(groups) == 0 {
		return ""
	}
	size := 0
	if labels.From != "" || labels.To != "" {
		size += len(labels.From) + len(labels.To) + 10
	}
	for _, g := range groups {
		size += 32
		for _, c := range g {
			if c.Tag != 'i' {
				for _, l := range a[c.I1:c.I2] {
					size += 1 + len(l)
				}
			}
			if c.Tag == 'r' || c.Tag == 'i' {
				for _, l := range b[c.J1:c.J2] {
					size += 1 + len(l)
				}
			}
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	writeHeader(&sb, labels)
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		sb.WriteString("@@ -")
		writeRange(&sb, first.I1, last.I2)
		sb.WriteString(" +")
		writeRange(&sb, first.J1, last.J2)
		sb.WriteString(" @@\n")
		for _, c := range g {
			if c.Tag == 'e' {
				writeLines(&sb, ' ', a[c.I1:c.I2])
				continue
			}
			if c.Tag == 'r' || c.Tag == 'd' {
				writeLines(&sb, '-', a[c.I1:c.I2])
			}
			if c.Tag == 'r' || c.Tag == 'i' {
				writeLines(&sb, '+', b[c.J1:c.J2])
			}
		}
	}
	return sb.String()
}

// writeHeader writes the two lines naming the sides, if either has a name.
func writeHeader(sb *strings.Builder, labels Labels) {
	if labels.From != "" || labels.To != "" {
		sb.WriteString("--- ")
		sb.WriteString(labels.From)
		sb.WriteString("\n+++ ")
		sb.WriteString(labels.To)
		sb.WriteByte('\n')
	}
}

// writeRange writes the lines start..stop (0-based, stop excluded) of a
// side as a unified diff's hunk header does: "N" for one line, "N,LEN"
// otherwise, an empty range naming the line before it.
func writeRange(sb *strings.Builder, start, stop int) {
	first, n := start+1, stop-start
	if n == 0 {
		first--
	}
	var num [20]byte
	sb.Write(strconv.AppendInt(num[:0], int64(first), 10))
	if n != 1 {
		sb.WriteByte(',')
		sb.Write(strconv.AppendInt(num[:0], int64(n), 10))
	}
}

// writeLines writes each line after the prefix mark.
func writeLines(sb *strings.Builder, mark byte, lines []string) {
	for _, l := range lines {
		sb.WriteByte(mark)
		sb.WriteString(l)
	}
}
