package textsafe

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
		{"\x1bPq#0\x1b\\ok", "ok"},
		{"\x1b_apc\x1b\\ok", "ok"},
		{"\x1b(Bx\x1b7y\x1b8", "xy"},
		{"\x1b(Bx\x1b7y", "xy"},
		{"\u009b31mred", "red"},
		{"\u009d0;title\u009cok", "ok"},
		{"\x1b]0;never terminated", ""},
		{"trailing\x1b", "trailing"},
		{"a\rb", "ab"},
		{"a\rb\x00\x08\x0b\x0c\x7f", "ab"},
		{"\x00\x08bell\x07\x7f", "bell"},
		{"bi\u202edi\u2066x\u2069", "bidix"},
		{"bi\u202edi\u2066x\u2069\u2028", "bidix"},
		{"non\ufffechar\uffff", "nonchar"},
		{"keep\ttab\nand newline", "keep\ttab\nand newline"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"two \xfe\xfd bytes", "two \ufffd\ufffd bytes"},
		{"ünïcödé ✓ 日本 \U0001F600", "ünïcödé ✓ 日本 \U0001F600"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCleanLine(t *testing.T) {
	if got := CleanLine("a\nb\tc\x1b[2J"); got != "a b c" {
		t.Errorf("CleanLine = %q", got)
	}
	if got := CleanLine(" a\nb\tc\x1b[2J  d "); got != " a b c  d " {
		t.Errorf("CleanLine = %q, want the ends kept", got)
	}
	if got := CleanLineTrim(" a\nb\tc\x1b[2J  d "); got != "a b c  d" {
		t.Errorf("CleanLineTrim = %q", got)
	}
}

func TestIsUnsafe(t *testing.T) {
	for _, r := range []rune{0, '\n', '\t', '\r', 0x1b, 0x7f, 0x85, 0x9b, 0x202e, 0x2066, 0x2028, 0x2029, 0xfffe, 0xffff} {
		if !IsUnsafe(r) {
			t.Errorf("IsUnsafe(%U) = false", r)
		}
	}
	for _, r := range []rune{' ', 'a', 0xa0, 'ü', 0x200b, 0xfffd, 0x1f600} {
		if IsUnsafe(r) {
			t.Errorf("IsUnsafe(%U) = true", r)
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("héllo wörld", 5); got != "héllo… (+6 chars)" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate("héllo", 5); got != "héllo" {
		t.Errorf("Truncate at the limit = %q", got)
	}
	if got := Truncate("héllo", 0); got != "héllo" {
		t.Errorf("Truncate without a limit = %q", got)
	}
}

func TestLastLinesAndTail(t *testing.T) {
	lines, dropped := LastLines("1\n2\n3\n4\n", 2)
	if strings.Join(lines, ",") != "3,4" || dropped != 2 {
		t.Errorf("LastLines = %v, %d", lines, dropped)
	}
	if lines, dropped := LastLines("1\n2\n", 5); strings.Join(lines, ",") != "1,2" || dropped != 0 {
		t.Errorf("LastLines of short text = %v, %d", lines, dropped)
	}
	if lines, _ := LastLines("\n", 3); lines != nil {
		t.Errorf("empty stderr gave %v", lines)
	}
	if got := Tail("1\n2\n3\n", 2); got != "2\n3" {
		t.Errorf("Tail = %q", got)
	}
	if got := Tail("\n\n", 2); got != "" {
		t.Errorf("Tail of empty text = %q", got)
	}
}
