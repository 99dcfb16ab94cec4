package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// hostileTexts try every way a string could break out of a table cell, a
// code span, a code block or a <details> summary.
var hostileTexts = []string{
	reporttest.Hostile,
	"a | b || c",
	`back\slash\|pipe \\| end\`,
	"new\nline | and\r\ncrlf\n| x | y |",
	"<script>alert(1)</script><img src=x onerror=alert(1)>",
	"</summary></details><details open>",
	"`tick` ``double`` ```fence```",
	"`",
	"**bold** _em_ ~~strike~~ [link](javascript:alert(1)) ![img](http://x/y.png) $x^2$",
	"&amp; &lt;b&gt; &#60;",
	"# heading\n- list\n> quote\n1. item",
	"<!-- comment -->",
	"\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \u202eevil",
}

func TestInlineStaysInOneCell(t *testing.T) {
	for _, s := range hostileTexts {
		row := "| " + inline(s, 0) + " | " + code(s, 0, true) + " |"
		doc := "| a | b |\n| --- | --- |\n" + row + "\n"
		got := checkDocument(t, doc)
		if len(got.tables) != 1 || len(got.tables[0].rows) != 1 {
			t.Fatalf("%q: table not parsed: %+v", s, got)
		}
		cells := got.tables[0].rows[0]
		if want := oneLine(s); cellText(cells[0]) != want {
			t.Errorf("%q: inline cell reads %q, want %q", s, cellText(cells[0]), want)
		}
		if want := oneLine(s); !strings.HasPrefix(cells[1], "`") {
			if cellText(cells[1]) != want {
				t.Errorf("%q: code fallback reads %q, want %q", s, cellText(cells[1]), want)
			}
		} else if codeSpanText(t, cells[1]) != want {
			t.Errorf("%q: code cell reads %q, want %q", s, codeSpanText(t, cells[1]), want)
		}
		if len(got.html) != 0 {
			t.Errorf("%q: raw HTML reached the document: %v", s, got.html)
		}
	}
}

func TestHTMLTextIsInert(t *testing.T) {
	for _, s := range hostileTexts {
		got := htmlText(s, 0)
		if strings.ContainsAny(got, "<>\"'\n\r") {
			t.Errorf("htmlText(%q) = %q", s, got)
		}
	}
}

func TestCodeBlockCannotBeClosed(t *testing.T) {
	for _, s := range hostileTexts {
		doc := codeBlock("text", s+"\n```\n````\n") + "after\n"
		got := checkDocument(t, doc)
		if len(got.code) != 1 {
			t.Fatalf("%q: %d code blocks, want 1", s, len(got.code))
		}
		if want := strings.TrimRight(textsafe.Clean(s+"\n```\n````\n"), "\n"); got.code[0] != want {
			t.Errorf("%q: block holds %q, want %q", s, got.code[0], want)
		}
	}
}

func TestLastLinesAndCapLines(t *testing.T) {
	if got := lastLines("1\n2\n3\n4\n", 2); got != "… (2 earlier lines)\n3\n4" {
		t.Errorf("lastLines = %q", got)
	}
	if got := capLines("1\n2\n3", 2); got != "1\n2\n… (1 more lines)" {
		t.Errorf("capLines = %q", got)
	}
}
