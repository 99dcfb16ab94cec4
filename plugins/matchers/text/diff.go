package main

import (
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsondiff"
	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
)

// Limits that keep diffs cheap to compute and short to read.
const (
	// maxDiffOutputLines caps the lines of a line diff.
	maxDiffOutputLines = 120
	// maxInlineRunes is the most runes per side (after trimming the common
	// prefix and suffix) a character diff is computed for.
	maxInlineRunes = 2000
	// inlineContext is how many unchanged runes are kept around a change.
	inlineContext = 24
	// maxInlineOutput caps the runes of a character diff.
	maxInlineOutput = 600
)

// diffValues describes how actual differs from expected. Two strings get a
// character diff (or a line diff when either spans lines); anything else
// gets a unified diff of the pretty-printed JSON.
func diffValues(expected, actual any) string {
	es, eok := expected.(string)
	as, aok := actual.(string)
	if eok && aok {
		return diffStrings(es, as)
	}
	return diffLines(jsonvalue.Pretty(expected), jsonvalue.Pretty(actual))
}

// diffStrings diffs two strings: line by line when either has a newline,
// character by character otherwise.
func diffStrings(expected, actual string) string {
	if strings.Contains(expected, "\n") || strings.Contains(actual, "\n") {
		return diffLines(expected, actual)
	}
	return diffInline(expected, actual)
}

// diffLines is a unified diff (3 lines of context) from "expected" to
// "actual", capped in size.
func diffLines(expected, actual string) string {
	return jsondiff.Unified(expected, actual, jsondiff.Labels{From: "expected", To: "actual"}, maxDiffOutputLines)
}

// diffInline marks the changes between two one-line strings in place:
// [-removed-] and {+added+}, with long unchanged runs shortened to "…".
func diffInline(expected, actual string) string {
	if d, ok := diffInlineASCII(expected, actual); ok {
		return d
	}
	return diffInlineRunes(expected, actual)
}

// diffInlineRunes is diffInline in general: rune by rune, with a sequence
// matcher over the changed middle.
func diffInlineRunes(expected, actual string) string {
	a, b := []rune(expected), []rune(actual)
	p := commonPrefix(a, b)
	s := commonSuffix(a[p:], b[p:])
	midA, midB := a[p:len(a)-s], b[p:len(b)-s]

	var sb strings.Builder
	sb.WriteString(keepTail(string(a[:p])))
	if len(midA) > maxInlineRunes || len(midB) > maxInlineRunes {
		writeChange(&sb, 'r', string(midA), string(midB))
	} else {
		ea, eb := runeStrings(midA), runeStrings(midB)
		ops := difflib.NewMatcherWithJunk(ea, eb, false, nil).GetOpCodes()
		for i, op := range ops {
			if op.Tag != 'e' {
				writeChange(&sb, op.Tag, string(midA[op.I1:op.I2]), string(midB[op.J1:op.J2]))
				continue
			}
			seg := string(midA[op.I1:op.I2])
			switch {
			case i == 0 && p == 0:
				seg = keepTail(seg)
			case i == len(ops)-1 && s == 0:
				seg = keepHead(seg)
			default:
				seg = keepEnds(seg)
			}
			sb.WriteString(seg)
		}
	}
	sb.WriteString(keepHead(string(a[len(a)-s:])))
	return truncateRunes(sb.String(), maxInlineOutput)
}

// writeChange writes one change in inline-diff notation.
func writeChange(sb *strings.Builder, tag byte, removed, added string) {
	if (tag == 'r' || tag == 'd') && len(removed) > 0 {
		sb.WriteString("[-" + truncateRunes(removed, maxInlineOutput/2) + "-]")
	}
	if (tag == 'r' || tag == 'i') && len(added) > 0 {
		sb.WriteString("{+" + truncateRunes(added, maxInlineOutput/2) + "+}")
	}
}

func runeStrings(rs []rune) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// keepTail shortens unchanged text that precedes the first change.
func keepTail(s string) string {
	if len(s) <= inlineContext {
		return s // no more runes than bytes
	}
	r := []rune(s)
	if len(r) <= inlineContext {
		return s
	}
	return "…" + string(r[len(r)-inlineContext:])
}

// keepHead shortens unchanged text that follows the last change.
func keepHead(s string) string {
	if len(s) <= inlineContext {
		return s
	}
	r := []rune(s)
	if len(r) <= inlineContext {
		return s
	}
	return string(r[:inlineContext]) + "…"
}

// keepEnds shortens unchanged text between two changes.
func keepEnds(s string) string {
	if len(s) <= 2*inlineContext+1 {
		return s
	}
	r := []rune(s)
	if len(r) <= 2*inlineContext+1 {
		return s
	}
	return string(r[:inlineContext]) + "…" + string(r[len(r)-inlineContext:])
}

// truncateRunes cuts s to at most n runes, marking the cut.
func truncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + fmt.Sprintf("… (%d more characters)", len(r)-n)
}
