package main

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a\x1b[2Jb", "ab"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"\x1b[?1049h\x1b[Hx", "x"},
		{"\x1b]0;window title\x07x", "x"},
		{"\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1bPq#0;2;0;0;0\x1b\\ok", "ok"},
		{"\x1b_apc\x1b\\ok", "ok"},
		{"\x1b(Bx\x1b7y\x1b8", "xy"},
		{"\u009b31mred", "red"},
		{"\u009d0;title\u009cok", "ok"},
		{"\x1b]0;never terminated", ""},
		{"trailing\x1b", "trailing"},
		{"a\rb", "ab"},
		{"\x00\x08bell\x07\x7f", "bell"},
		{"bi\u202edi\u2066x\u2069", "bidix"},
		{"keep\ttab\nand newline", "keep\ttab\nand newline"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"ünïcödé ✓ 日本", "ünïcödé ✓ 日本"},
	} {
		if got := clean(tc.in); got != tc.want {
			t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := cleanLine("a\nb\tc\x1b[2J"); got != "a b c" {
		t.Errorf("cleanLine = %q", got)
	}
}

func TestTruncateAndTail(t *testing.T) {
	if got := truncate("héllo wörld", 5); got != "héllo… (+6 chars)" {
		t.Errorf("truncate = %q", got)
	}
	lines, dropped := lastLines("1\n2\n3\n4\n", 2)
	if strings.Join(lines, ",") != "3,4" || dropped != 2 {
		t.Errorf("lastLines = %v, %d", lines, dropped)
	}
	if lines, _ := lastLines("\n", 3); lines != nil {
		t.Errorf("empty stderr gave %v", lines)
	}
}

func TestPainterNeverPassesUntrustedEscapes(t *testing.T) {
	for _, color := range []bool{false, true} {
		p := painter{color: color}
		got := p.paint(red, "x\x1b[2Jy")
		if strings.Contains(got, "\x1b[2J") {
			t.Errorf("color=%v: %q", color, got)
		}
		if !color && strings.ContainsRune(got, 0x1b) {
			t.Errorf("colour off but got %q", got)
		}
	}
}
