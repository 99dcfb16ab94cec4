package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsondiff"
)

func TestExact(t *testing.T) {
	runCases(t, []matchCase{
		{name: "equal strings", key: "exact", actual: `"hello"`, arg: `"hello"`, pass: true},
		{name: "1 equals 1.0", key: "exact", actual: `1`, arg: `1.0`, pass: true},
		{name: "1.0 equals 1", key: "exact", actual: `1.0`, arg: `1`, pass: true},
		{name: "exponent forms", key: "exact", actual: `100`, arg: `1e2`, pass: true},
		{name: "fraction exponent", key: "exact", actual: `1.5`, arg: `15E-1`, pass: true},
		{name: "negative zero", key: "exact", actual: `-0.0`, arg: `0`, pass: true},
		{name: "key order irrelevant", key: "exact", actual: `{"a":1,"b":[1,{"c":null}]}`, arg: `{"b":[1.0,{"c":null}],"a":1}`, pass: true},
		{name: "big ints equal", key: "exact", actual: `123456789012345678901234567890`, arg: `123456789012345678901234567890`, pass: true},
		{name: "big ints differ in last digit", key: "exact", actual: `12345678901234567891`, arg: `12345678901234567890`, pass: false},
		{name: "beyond float precision", key: "exact", actual: `9007199254740993`, arg: `9007199254740992`, pass: false},
		{name: "array order matters", key: "exact", actual: `[1,2]`, arg: `[2,1]`, pass: false,
			substr: map[string]string{"diff": "--- expected"}},
		{name: "extra key fails", key: "exact", actual: `{"a":1,"b":2}`, arg: `{"a":1}`, pass: false,
			substr: map[string]string{"diff": `+  "b": 2`}},
		{name: "string diff", key: "exact", actual: `"hello, world!"`, arg: `"hello, world"`, pass: false,
			fields: map[string]string{"expected": `"hello, world"`, "actual": `"hello, world!"`, "diff": `"hello, world{+!+}"`},
			absent: []string{"note", "path"}},
		{name: "string replaced", key: "exact", actual: `"the cat sat"`, arg: `"the dog sat"`, pass: false,
			fields: map[string]string{"diff": `"the [-dog-]{+cat+} sat"`}},
		{name: "type mismatch", key: "exact", actual: `5`, arg: `"5"`, pass: false,
			fields: map[string]string{"expected": `"5"`, "actual": `5`},
			substr: map[string]string{"note": "expected a string, got a number"}},
		{name: "null vs false", key: "exact", actual: `null`, arg: `false`, pass: false},
		{name: "multi-line strings diff by line", key: "exact", actual: `"a\nB\nc"`, arg: `"a\nb\nc"`, pass: false,
			substr: map[string]string{"diff": "-b\n+B"}},
		{name: "nested object diff", key: "exact", actual: `{"user":{"id":7,"name":"Ann"}}`, arg: `{"user":{"id":7,"name":"Anne"}}`, pass: false,
			substr: map[string]string{"diff": "-    \"name\": \"Anne\"\n+    \"name\": \"Ann\""}},
	})
}

func TestExactBigIntsSurvive(t *testing.T) {
	h := serve(t)
	r := h.Match("exact", `12345678901234567891`, `12345678901234567890`)
	if r.Pass || r.Error != "" {
		t.Fatalf("want a failure, got %+v", r)
	}
	for _, want := range []string{`"expected":12345678901234567890`, `"actual":12345678901234567891`} {
		if !strings.Contains(string(r.Failure), want) {
			t.Errorf("failure %s lacks %s", r.Failure, want)
		}
	}
}

func TestDiffInlineShortensLongRuns(t *testing.T) {
	long := strings.Repeat("x", 100)
	got := diffInline(long+"A"+long, long+"B"+long)
	want := "…" + strings.Repeat("x", inlineContext) + "[-A-]{+B+}" + strings.Repeat("x", inlineContext) + "…"
	if got != want {
		t.Errorf("diffInline = %q, want %q", got, want)
	}
	// Two changes far apart keep context on both sides of the gap.
	got = diffInline("a"+long+"b", "A"+long+"B")
	if !strings.HasPrefix(got, "[-a-]{+A+}") || !strings.HasSuffix(got, "[-b-]{+B+}") || !strings.Contains(got, "…") {
		t.Errorf("diffInline = %q", got)
	}
}

func TestDiffLinesLimits(t *testing.T) {
	big := strings.Repeat("line\n", jsondiff.MaxInputLines+1)
	if got := diffLines(big, "x"); !strings.Contains(got, "not diffed") {
		t.Errorf("oversized diff = %q", got)
	}
	var a, b strings.Builder
	for i := 0; i < 400; i++ {
		a.WriteString("same\n")
		b.WriteString("diff\n")
	}
	got := diffLines(a.String(), b.String())
	if !strings.Contains(got, "more diff lines") || strings.Count(got, "\n") > maxDiffOutputLines {
		t.Errorf("diff not capped: %d lines", strings.Count(got, "\n"))
	}
}
