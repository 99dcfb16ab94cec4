package main

import (
	"sort"

	"github.com/mcptest/mcptest/sdk/report"
)

// A metric rollup is the suite-level summary of a named score: its mean
// over the tests (or assertions) that reported it, and how many did. The
// derived metrics' rollups come from the report itself (run.MetricRollups,
// computed by mcptest over the whole run); two more kinds are computed
// here: the test's combined score ("score", set on tests that declare a
// threshold) and the scores matchers give their assertions, by matcher.
// Nothing is invented for tests or assertions without a score.

// metricRollup is one row of the "Metric rollups" table.
type metricRollup struct {
	// Name is a derived metric's name, "score" for the tests' combined
	// score, or a matcher key for that matcher's assertion scores.
	Name string
	// Derived is set for the rollups of derived metrics.
	Derived bool
	// Assertion is set for assertion-score rollups.
	Assertion bool
	Sum       float64
	Count     int
}

// Mean is the average score.
func (m metricRollup) Mean() float64 { return m.Sum / float64(m.Count) }

// matcherRate counts the judged assertions of one matcher.
type matcherRate struct {
	Matcher                 string
	Passed, Failed, Errored int
}

// Judged is the number of assertions that got a verdict.
func (m matcherRate) Judged() int { return m.Passed + m.Failed }

// rollups lists the metric rollups of a run: the derived metrics' (from
// the report, in its order), then the test score, then assertion scores by
// matcher name. It is empty when nothing in the run has a score.
func rollups(run *report.Run) []metricRollup {
	var out []metricRollup
	for _, m := range run.MetricRollups {
		if m.Count > 0 {
			out = append(out, metricRollup{Name: m.Name, Derived: true, Sum: m.Mean * float64(m.Count), Count: m.Count})
		}
	}
	test := metricRollup{Name: "score"}
	byMatcher := map[string]*metricRollup{}
	for i := range run.Tests {
		t := &run.Tests[i]
		if t.Score != nil {
			test.Sum += *t.Score
			test.Count++
		}
		for j := range t.Assertions {
			a := &t.Assertions[j]
			if a.Score == nil {
				continue
			}
			m := byMatcher[a.Matcher]
			if m == nil {
				m = &metricRollup{Name: a.Matcher, Assertion: true}
				byMatcher[a.Matcher] = m
			}
			m.Sum += *a.Score
			m.Count++
		}
	}
	if test.Count > 0 {
		out = append(out, test)
	}
	names := make([]string, 0, len(byMatcher))
	for name := range byMatcher {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, *byMatcher[name])
	}
	return out
}

// matcherRates counts assertion verdicts by matcher, in matcher order.
// Skipped assertions are left out.
func matcherRates(run *report.Run) []matcherRate {
	byMatcher := map[string]*matcherRate{}
	for i := range run.Tests {
		for _, a := range run.Tests[i].Assertions {
			m := byMatcher[a.Matcher]
			if m == nil {
				m = &matcherRate{Matcher: a.Matcher}
				byMatcher[a.Matcher] = m
			}
			switch a.Status {
			case report.StatusPassed:
				m.Passed++
			case report.StatusFailed:
				m.Failed++
			case report.StatusErrored:
				m.Errored++
			}
		}
	}
	out := make([]matcherRate, 0, len(byMatcher))
	for _, m := range byMatcher {
		if m.Judged()+m.Errored > 0 {
			out = append(out, *m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Matcher < out[j].Matcher })
	return out
}
