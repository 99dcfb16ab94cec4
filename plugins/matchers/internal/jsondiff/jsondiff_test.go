package jsondiff

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
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

// referenceUnified is Unified as it was written on difflib's own writer.
func referenceUnified(from, to string, labels Labels, maxOutputLines int) string {
	a, b := difflib.SplitLines(from), difflib.SplitLines(to)
	out, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: a, B: b, FromFile: labels.From, ToFile: labels.To, Context: 3})
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > maxOutputLines {
		more := len(lines) - maxOutputLines
		lines = append(lines[:maxOutputLines], fmt.Sprintf("… (%d more diff lines)", more))
	}
	return strings.Join(lines, "\n")
}

// TestUnifiedMatchesDifflibsWriter: the diff is byte for byte what
// difflib's WriteUnifiedDiff wrote, cut as before, on texts with long
// equal runs, insertions, deletions and replacements at both ends, empty
// texts and sides, with and without labels, and around the line limit.
func TestUnifiedMatchesDifflibsWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		n := rng.IntN(40)
		lines := make([]string, n)
		for i := range lines {
			lines[i] = fmt.Sprintf(`  "k%d": %d,`, rng.IntN(6), rng.IntN(3))
		}
		s := strings.Join(lines, "\n")
		if rng.IntN(4) == 0 {
			s += "\n"
		}
		return s
	}
	labels := []Labels{{}, {From: "expected", To: "actual"}, {From: "x"}, {To: "y"}}
	for i := range 5000 {
		from, to := text(), text()
		switch i % 7 {
		case 0:
			to = from + "\nextra"
		case 1, 2:
			// One line a side, equal or not, with or without a newline.
			from, to = fmt.Sprint(rng.IntN(3)), fmt.Sprint(rng.IntN(3))
			if i%2 == 0 {
				to += "\n"
			}
		}
		l := labels[i%len(labels)]
		limit := 1 + rng.IntN(60)
		if got, want := Unified(from, to, l, limit), referenceUnified(from, to, l, limit); got != want {
			t.Fatalf("case %d (limit %d, labels %+v):\nfrom %q\nto %q\ngot\n%s\nwant\n%s", i, limit, l, from, to, got, want)
		}
	}
}

// TestUnifiedAllocatesLittle: a small diff allocates what the sequence
// matcher needs and the text, not a 4 KB buffered writer per call.
func TestUnifiedAllocatesLittle(t *testing.T) {
	const calls = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		Unified("1234", "1235", Labels{From: "expected", To: "actual"}, 120)
	}
	runtime.ReadMemStats(&after)
	if bytes := (after.TotalAlloc - before.TotalAlloc) / calls; bytes >= 4096 {
		t.Fatalf("a one-line diff allocates %d bytes", bytes)
	}
}

// TestWriteRange: hunk ranges as difflib writes them, including the empty
// range, which Unified never meets (difflib.SplitLines gives every text a
// line) but the layout defines.
func TestWriteRange(t *testing.T) {
	for _, c := range []struct {
		start, stop int
		want        string
	}{{0, 0, "0,0"}, {4, 4, "4,0"}, {0, 1, "1"}, {6, 7, "7"}, {2, 5, "3,3"}, {0, 12, "1,12"}} {
		var sb strings.Builder
		writeRange(&sb, c.start, c.stop)
		if sb.String() != c.want {
			t.Errorf("range %d..%d = %q, want %q", c.start, c.stop, sb.String(), c.want)
		}
	}
}
