package main

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

func TestModelCompatibilityLine(t *testing.T) {
	run := reporttest.Sample()
	run.ModelCompatibility = []string{"claude-opus-4-7", "<b>gpt-4o</b>"}
	doc := parseHTML(t, renderRun(t, run))
	lines := all(doc, func(n *html.Node) bool {
		return n.Data == "p" && strings.HasPrefix(text(n), "model compatibility:")
	})
	if len(lines) != 1 || text(lines[0]) != "model compatibility: claude-opus-4-7, <b>gpt-4o</b>" {
		t.Fatalf("model lines: %d %q", len(lines), func() string {
			if len(lines) > 0 {
				return text(lines[0])
			}
			return ""
		}())
	}
	if codes := all(lines[0], byTag("code")); len(codes) != 2 {
		t.Errorf("%d code elements, want one per model", len(codes))
	}
	run.ModelCompatibility = nil
	if strings.Contains(renderRun(t, run), "model compatibility") {
		t.Error("a run without model_compatibility shows the line")
	}
}
