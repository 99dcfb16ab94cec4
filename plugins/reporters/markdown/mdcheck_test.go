package main

import (
	"regexp"
	"strings"
	"testing"
)

// goldmark is not a dependency, so the tests check the document's
// structure by parsing its lines the way a GFM renderer does for the
// constructs the reporter emits: fenced code blocks, pipe tables, raw HTML
// tags, backslash escapes, entities and code spans.

// mdTable is one pipe table of a document: its header cells and rows of
// cells, as they appear in the source.
type mdTable struct {
	line   int
	header []string
	rows   [][]string
}

// mdDoc is what checkDocument found in a document.
type mdDoc struct {
	tables []mdTable
	// html lists the raw HTML tags outside code blocks, in order.
	html []string
	// code holds the contents of the fenced code blocks.
	code []string
}

var (
	fenceOpen = regexp.MustCompile("^(`{3,})([^`]*)$")
	rawTag    = regexp.MustCompile(`^<(/?[A-Za-z][A-Za-z0-9-]*)`)
	delimRow  = regexp.MustCompile(`^\|( *:?-+:? *\|)+$`)
)

// checkDocument parses doc, failing the test on anything a renderer would
// read differently from what the reporter meant: an unclosed fence, a
// control character, a table row whose cell count differs from its
// header's under either of the two pipe-escaping rules parsers use.
func checkDocument(t *testing.T, doc string) mdDoc {
	t.Helper()
	var out mdDoc
	if i := strings.IndexFunc(doc, func(r rune) bool { return (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) }); i >= 0 {
		t.Errorf("control character %q at byte %d", doc[i], i)
	}
	lines := strings.Split(doc, "\n")
	var table *mdTable
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := fenceOpen.FindStringSubmatch(l); m != nil {
			table = nil
			var body []string
			closed := false
			for i++; i < len(lines); i++ {
				if c := strings.TrimRight(lines[i], " "); strings.Trim(c, "`") == "" && len(c) >= len(m[1]) {
					closed = true
					break
				}
				body = append(body, lines[i])
			}
			if !closed {
				t.Fatalf("line %d: code fence %s never closed", i+1, m[1])
			}
			out.code = append(out.code, strings.Join(body, "\n"))
			continue
		}
		out.html = append(out.html, rawTags(l)...)
		switch {
		case table == nil && strings.HasPrefix(l, "|") && i+1 < len(lines) && delimRow.MatchString(lines[i+1]):
			out.tables = append(out.tables, mdTable{line: i + 1, header: splitRow(t, i+1, l)})
			table = &out.tables[len(out.tables)-1]
			if n := len(splitRow(t, i+2, lines[i+1])); n != len(table.header) {
				t.Errorf("line %d: delimiter row has %d cells, header %d", i+2, n, len(table.header))
			}
			i++
		case table != nil && strings.HasPrefix(l, "|"):
			row := splitRow(t, i+1, l)
			if len(row) != len(table.header) {
				t.Errorf("line %d: row has %d cells, header %d: %s", i+1, len(row), len(table.header), l)
			}
			table.rows = append(table.rows, row)
		case table != nil && l == "":
			table = nil
		case table != nil:
			t.Errorf("line %d: a table row must start with a pipe: %q", i+1, l)
		}
	}
	return out
}

// rawTags returns the HTML tags of a line outside code spans and
// backslash escapes, as a CommonMark inline parser finds them: a backtick
// run opens a code span only if a run of the same length closes it.
func rawTags(l string) []string {
	var tags []string
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case '`':
			n := backtickRun(l[i:])
			end := i + n - 1
			for j := i + n; j < len(l); {
				k := strings.IndexByte(l[j:], '`')
				if k < 0 {
					break
				}
				if m := backtickRun(l[j+k:]); m != n {
					j += k + m
					continue
				}
				end = j + k + n - 1
				break
			}
			i = end
		case '<':
			if m := rawTag.FindStringSubmatch(l[i:]); m != nil {
				tags = append(tags, m[1])
			}
		}
	}
	return tags
}

func backtickRun(s string) int { return len(s) - len(strings.TrimLeft(s, "`")) }

// splitRow splits a table row into cells. cmark-gfm treats only a pipe
// right after a backslash as escaped; other parsers count the backslashes
// before it. The reporter must produce rows both read the same way.
func splitRow(t *testing.T, line int, row string) []string {
	t.Helper()
	if !strings.HasPrefix(row, "|") || !strings.HasSuffix(row, "|") {
		t.Errorf("line %d: row must start and end with a pipe: %q", line, row)
	}
	a, b := splitCells(row, false), splitCells(row, true)
	if strings.Join(a, "\x00") != strings.Join(b, "\x00") {
		t.Errorf("line %d: pipe-escaping rules disagree on %q", line, row)
	}
	return a
}

func splitCells(row string, countBackslashes bool) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch {
		case countBackslashes && row[i] == '\\':
			i++
		case row[i] == '|' && (countBackslashes || i == 0 || row[i-1] != '\\'):
			cells = append(cells, strings.TrimSpace(row[start:i]))
			start = i + 1
		}
	}
	return append(cells, strings.TrimSpace(row[start:]))
}

// cellText is what a renderer shows for a table cell of plain escaped
// text: pipes unescaped by the table, then backslash escapes and entities.
func cellText(cell string) string {
	cell = strings.ReplaceAll(cell, `\|`, "|")
	var b strings.Builder
	for i := 0; i < len(cell); i++ {
		if cell[i] == '\\' && i+1 < len(cell) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", cell[i+1]) >= 0 {
			i++
		}
		b.WriteByte(cell[i])
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&amp;", "&").Replace(b.String())
}

// codeSpanText is what a renderer shows for a table cell holding one code
// span: the pipes unescaped, the fence and its padding removed.
func codeSpanText(t *testing.T, cell string) string {
	t.Helper()
	cell = strings.ReplaceAll(cell, `\|`, "|")
	n := len(cell) - len(strings.TrimLeft(cell, "`"))
	fence := cell[:n]
	if n == 0 || !strings.HasSuffix(cell, fence) || len(cell) < 2*n {
		t.Fatalf("not a code span: %q", cell)
	}
	inner := cell[n : len(cell)-n]
	if strings.Contains(inner, fence) {
		t.Fatalf("code span %q closes early", cell)
	}
	if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.Trim(inner, " ") != "" {
		inner = inner[1 : len(inner)-1]
	}
	return inner
}
