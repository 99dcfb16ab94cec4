package main

import "testing"

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
}
