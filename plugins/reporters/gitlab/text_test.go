package main

// Kept identical in plugins/reporters/junit, sarif and gitlab, like text.go.

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"\x1b]0;window title\x07x", "x"},
		{"\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1bPq#0\x1b\\ok", "ok"},
		{"\x1b(Bx\x1b7y", "xy"},
		{"\u009b31mred", "red"},
		{"\u009d0;title\u009cok", "ok"},
		{"\x1b]0;never terminated", ""},
		{"a\rb\x00\x08\x0b\x0c\x7f", "ab"},
		{"bi\u202edi\u2066x\u2069\u2028", "bidix"},
		{"non\ufffechar\uffff", "nonchar"},
		{"keep\ttab\nand newline", "keep\ttab\nand newline"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"ünïcödé ✓ 日本 \U0001F600", "ünïcödé ✓ 日本 \U0001F600"},
	} {
		if got := clean(tc.in); got != tc.want {
			t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := cleanLine(" a\nb\tc\x1b[2J  d "); got != "a b c  d" {
		t.Errorf("cleanLine = %q", got)
	}
}

func TestFailureFields(t *testing.T) {
	got := failureFields(json.RawMessage(`{"zeta":1,"note":"n\u001b[2J","expected":"<a>","diff":"-a\n+b","actual":{"k":[1,2]},"alpha":null}`))
	want := []field{
		{"expected", `"<a>"`}, {"actual", `{"k":[1,2]}`}, {"diff", "-a\n+b"}, {"note", "n"},
		{"alpha", "null"}, {"zeta", "1"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := failureFields(json.RawMessage(`[1, 2]`)); len(got) != 1 || got[0] != (field{"failure", "[1,2]"}) {
		t.Errorf("non-object failure = %v", got)
	}
	if got := failureFields(nil); got != nil {
		t.Errorf("empty failure = %v", got)
	}
	long := renderValue(json.RawMessage(`"` + strings.Repeat("x", 2*maxValueRunes) + `"`))
	if !strings.HasSuffix(long, "… (+1002 chars)") {
		t.Errorf("long value not cut: %q", long[len(long)-20:])
	}
	if got := renderValue(json.RawMessage(`{"n":12345678901234567891}`)); got != `{"n":12345678901234567891}` {
		t.Errorf("big number = %q", got)
	}
}

func TestAssertionLabelAndHelpers(t *testing.T) {
	a := report.Assertion{Target: "result\n", Matcher: "exact", Message: "says \x1b[2Jhi"}
	if got := assertionLabel(&a); got != "result exact: says hi" {
		t.Errorf("assertionLabel = %q", got)
	}
	if got := truncate("héllo wörld", 5); got != "héllo… (+6 chars)" {
		t.Errorf("truncate = %q", got)
	}
	if got := lastLines("1\n2\n3\n", 2); got != "2\n3" {
		t.Errorf("lastLines = %q", got)
	}
	if got := formatNumber(math.Inf(1)) + " " + formatNumber(0.75) + " " + formatNumber(1e21); got != "0 0.75 1000000000000000000000" {
		t.Errorf("formatNumber = %q", got)
	}
}
