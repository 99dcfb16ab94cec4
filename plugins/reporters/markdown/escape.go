package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
)

// Everything that came from a suite, a server or a plugin passes through
// one of these functions before it reaches the document, so it is shown as
// text: it cannot close a table cell, start a new row, open an HTML
// element, turn into emphasis or a link, or end a code block early.

// inlineEscaper escapes the characters that mean something inside a
// paragraph or a table cell. &, < and > become entities (renderers that do
// not know CommonMark's backslash escapes still show them as text); the
// rest get a backslash, which CommonMark allows before any ASCII
// punctuation. The pipe is escaped everywhere, so the same text is safe in
// and out of tables.
var inlineEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"|", `\|`, "~", `\~`, "#", `\#`, "!", `\!`, "$", `\$`,
)

// inline returns untrusted text for use inside a line: cleaned, newlines
// and tabs turned into spaces, cut to max runes, and escaped.
func inline(s string, max int) string {
	return inlineEscaper.Replace(textsafe.Truncate(oneLine(s), max))
}

// htmlEscaper escapes text placed inside our own HTML elements (the
// <summary> of a <details> block), where Markdown is not interpreted.
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// htmlText returns untrusted text for use inside an HTML element on one
// line.
func htmlText(s string, max int) string {
	return htmlEscaper.Replace(textsafe.Truncate(oneLine(s), max))
}

// code returns untrusted text as an inline code span. The fence is longer
// than any run of backticks in the text. Inside a table the pipe must still
// be escaped (GFM splits the row before it parses code spans), so inTable
// adds the backslash that GFM removes again; text holding a backslash
// before a pipe, which parsers split differently, is escaped as plain text
// instead.
func code(s string, max int, inTable bool) string {
	s = textsafe.Truncate(oneLine(s), max)
	if s == "" {
		return ""
	}
	if inTable && strings.Contains(s, `\|`) {
		return inlineEscaper.Replace(s)
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ")) {
		s = " " + s + " "
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return fence + s + fence
}

// codeBlock returns untrusted, possibly multi-line text as a fenced code
// block ending in a newline. The fence is longer than any run of backticks
// in the text, so the text cannot close it.
func codeBlock(lang, text string) string {
	text = strings.TrimRight(textsafe.Clean(text), "\n")
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	return fence + lang + "\n" + text + "\n" + fence + "\n"
}

// oneLine cleans s and folds it onto one line.
func oneLine(s string) string {
	s = textsafe.Clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// capLines keeps the first n lines of s, noting how many were cut.
func capLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… (%d more lines)", len(lines)-n)
}

// lastLines keeps the last n lines of s, noting how many were cut.
func lastLines(s string, n int) string {
	lines, dropped := textsafe.LastLines(s, n)
	if dropped == 0 {
		return strings.Join(lines, "\n")
	}
	return fmt.Sprintf("… (%d earlier lines)\n", dropped) + strings.Join(lines, "\n")
}
