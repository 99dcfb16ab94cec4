package compare

import (
	"testing"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

func run(tests ...rpt.Test) *rpt.Run { return &rpt.Run{Tests: tests} }

func tt(id string, s rpt.Status) rpt.Test { return rpt.Test{ID: id, Name: id, Status: s} }

func TestCompare(t *testing.T) {
	prev := run(tt("a", rpt.StatusPassed), tt("b", rpt.StatusFailed), tt("c", rpt.StatusPassed), tt("w", rpt.StatusWarned), tt("s", rpt.StatusPassed))
	cur := run(tt("a", rpt.StatusErrored), tt("b", rpt.StatusPassed), tt("d", rpt.StatusFailed), tt("e", rpt.StatusPassed), tt("w", rpt.StatusFailed), tt("s", rpt.StatusSkipped))
	r := Compare(prev, cur)
	ids := func(l []Change) (out []string) {
		for _, c := range l {
			out = append(out, c.ID)
		}
		return out
	}
	check := func(what string, got []Change, want ...string) {
		t.Helper()
		g := ids(got)
		if len(g) != len(want) {
			t.Errorf("%s = %v, want %v", what, g, want)
			return
		}
		for i := range g {
			if g[i] != want[i] {
				t.Errorf("%s = %v, want %v", what, g, want)
			}
		}
	}
	check("regressions", r.Regressions, "a", "w")
	check("new failures", r.NewFailures, "d")
	check("fixed", r.Fixed, "b")
	check("added", r.Added, "d", "e")
	check("removed", r.Removed, "c")
	// b and e passed of the five that ran (s was skipped).
	if r.PassRate != 40 {
		t.Errorf("pass rate = %v, want 40", r.PassRate)
	}
}
