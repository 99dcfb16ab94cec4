package jsondiff

import (
	"fmt"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	got := Unified("a\nb\nc", "a\nB\nc", Labels{From: "expected", To: "actual"}, 100)
	want := "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Unified("same\n", "same\n", Labels{From: "a", To: "b"}, 100); got != "" {
		t.Errorf("equal texts: %q", got)
	}
}

func TestUnifiedLimits(t *testing.T) {
	var a, b []string
	for i := 0; i < 50; i++ {
		a = append(a, fmt.Sprint(i))
		b = append(b, fmt.Sprint(-i))
	}
	got := Unified(strings.Join(a, "\n"), strings.Join(b, "\n"), Labels{From: "x", To: "y"}, 10)
	lines := strings.Split(got, "\n")
	if len(lines) != 11 || lines[10] != "… (92 more diff lines)" {
		t.Errorf("cut diff:\n%s", got)
	}
	huge := strings.Repeat("x\n", MaxInputLines) + "x"
	if got := Unified(huge, "x", Labels{}, 10); got != "(not diffed: 5001 and 1 lines exceed the 5000-line diff limit)" {
		t.Errorf("huge input: %s", got)
	}
}
