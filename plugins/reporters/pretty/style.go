package main

import (
	"fmt"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// style is an SGR colour the reporter may apply to its own text.
type style string

// The styles in use.
const (
	plain  style = ""
	green  style = "\x1b[32m"
	red    style = "\x1b[31m"
	yellow style = "\x1b[33m"
	dim    style = "\x1b[2m"
	bold   style = "\x1b[1m"
	reset        = "\x1b[0m"
)

// painter applies styles when colour is on. Every piece of text it paints
// is passed through textsafe.Clean first, so the only escape sequences in the
// output are the ones it adds itself.
type painter struct {
	color bool
}

// paint returns untrusted text, cleaned, in the given style.
func (p painter) paint(st style, text string) string {
	text = textsafe.Clean(text)
	if !p.color || st == plain || text == "" {
		return text
	}
	return string(st) + text + reset
}

// line is paint for text that must stay on one line.
func (p painter) line(st style, text string) string {
	return p.paint(st, textsafe.CleanLine(text))
}

// statusLabel is a status's mark, word and colour.
type statusLabel struct {
	mark, word string
	st         style
}

// labels maps each test status to how it is shown.
var labels = map[report.Status]statusLabel{
	report.StatusPassed:  {"✓", "PASS", green},
	report.StatusFailed:  {"✗", "FAIL", red},
	report.StatusWarned:  {"!", "WARN", yellow},
	report.StatusErrored: {"!", "ERROR", yellow},
	report.StatusSkipped: {"-", "SKIP", dim},
	// Deferred: an agent test whose model has no key; not a pass.
	report.StatusDeferred: {"~", "DEFERRED", yellow},
}

// labelFor returns the label of st, inventing one for unknown statuses.
func labelFor(st report.Status) statusLabel {
	if l, ok := labels[st]; ok {
		return l
	}
	return statusLabel{"?", textsafe.CleanLine(string(st)), yellow}
}

// formatMS renders a duration in milliseconds with precision that suits
// its size.
func formatMS(ms float64) string {
	switch {
	case ms < 1:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 10:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// formatSeconds renders a run duration given in milliseconds as seconds.
func formatSeconds(ms float64) string {
	return fmt.Sprintf("%.2fs", ms/1000)
}
