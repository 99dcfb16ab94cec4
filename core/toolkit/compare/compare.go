// Package compare compares a run with a saved earlier run of the same
// suites (mcptest run --compare-to RUN.json): which tests regressed
// (passed before, fail or error now), which new tests fail, which were
// fixed, added or removed. It is not the compliance baseline of known
// failures: it compares two whole runs, test by test, by stable id.
package compare

import (
	"fmt"
	"io"
	"sort"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Result is the difference between a previous run and the current one.
type Result struct {
	// Regressions passed before and failed or errored now.
	Regressions []Change `json:"regressions"`
	// NewFailures are tests absent before that fail or error now.
	NewFailures []Change `json:"new_failures"`
	// Fixed failed or errored before and pass now.
	Fixed []Change `json:"fixed"`
	// Added and Removed are tests only in the current or previous run.
	Added   []Change `json:"added"`
	Removed []Change `json:"removed"`
	// PassRate is the share (0 to 100) of the current run's tests that
	// passed (a warning counts as passed; skipped tests do not count).
	PassRate float64 `json:"pass_rate"`
}

// Change is one test that moved.
type Change struct {
	ID     string     `json:"id"`
	Name   string     `json:"name"`
	Before rpt.Status `json:"before,omitempty"`
	Now    rpt.Status `json:"now,omitempty"`
}

func good(s rpt.Status) bool { return s == rpt.StatusPassed || s == rpt.StatusWarned }
func bad(s rpt.Status) bool  { return s == rpt.StatusFailed || s == rpt.StatusErrored }

// Compare compares cur with prev.
func Compare(prev, cur *rpt.Run) *Result {
	res := &Result{}
	before := map[string]*rpt.Test{}
	for i := range prev.Tests {
		before[prev.Tests[i].ID] = &prev.Tests[i]
	}
	seen := map[string]bool{}
	passed, counted := 0, 0
	for i := range cur.Tests {
		t := &cur.Tests[i]
		seen[t.ID] = true
		if t.Status != rpt.StatusSkipped {
			counted++
			if good(t.Status) {
				passed++
			}
		}
		p, ok := before[t.ID]
		c := Change{ID: t.ID, Name: t.Name, Now: t.Status}
		switch {
		case !ok:
			res.Added = append(res.Added, c)
			if bad(t.Status) {
				res.NewFailures = append(res.NewFailures, c)
			}
		case good(p.Status) && bad(t.Status):
			c.Before = p.Status
			res.Regressions = append(res.Regressions, c)
		case bad(p.Status) && good(t.Status):
			c.Before = p.Status
			res.Fixed = append(res.Fixed, c)
		}
	}
	for i := range prev.Tests {
		if t := &prev.Tests[i]; !seen[t.ID] {
			res.Removed = append(res.Removed, Change{ID: t.ID, Name: t.Name, Before: t.Status})
		}
	}
	if counted > 0 {
		res.PassRate = 100 * float64(passed) / float64(counted)
	}
	for _, l := range [][]Change{res.Regressions, res.NewFailures, res.Fixed, res.Added, res.Removed} {
		sort.Slice(l, func(i, j int) bool { return l[i].ID < l[j].ID })
	}
	return res
}

// Write prints the comparison for a terminal.
func (r *Result) Write(w io.Writer, against string) {
	fmt.Fprintf(w, "compared with %s: %d regression(s), %d new failure(s), %d fixed, %d new, %d removed; pass rate %.1f%%\n",
		against, len(r.Regressions), len(r.NewFailures), len(r.Fixed), len(r.Added), len(r.Removed), r.PassRate)
	section := func(title string, l []Change) {
		for _, c := range l {
			if c.Before != "" && c.Now != "" {
				fmt.Fprintf(w, "  %s: %s (%s -> %s)\n", title, c.Name, c.Before, c.Now)
			} else {
				fmt.Fprintf(w, "  %s: %s\n", title, c.Name)
			}
		}
	}
	section("regression", r.Regressions)
	section("new failure", r.NewFailures)
	section("fixed", r.Fixed)
	section("removed", r.Removed)
}
