package main

import (
	"context"
	"testing"

	"github.com/mcptest/mcptest/internal/textbench"
	"github.com/mcptest/mcptest/sdk"
)

// BenchmarkDirect100k is the floor of the budget "100,000 assertions
// through the text plugin: at most 1 µs per assertion amortised over a
// direct Go call": the assertions of internal/textbench, the same ones
// BenchmarkJudge100k in core/assert sends through the runner and the plugin
// process, judged by direct calls of this plugin's matchers, one after
// another, after the arguments were checked as a run checks them. Each
// item carries the options the core would send, though the text matchers
// do not read them. bench/run.sh subtracts this from the pipeline's
// figure.
func BenchmarkDirect100k(b *testing.B) {
	gen := textbench.Generate()
	ms := newPlugin().Matchers
	n := textbench.Tests * textbench.AssertionsPerTest
	inputs := make([]sdk.MatchInput, 0, n)
	want := make([]bool, 0, n)
	// The matcher of each item is looked up here, not in the loop: the
	// floor is the matchers' own work.
	matchers := make([]sdk.Matcher, 0, n)
	for _, t := range gen {
		for _, a := range t.Assertions {
			m, ok := ms[a.Key]
			if !ok {
				b.Fatalf("the text plugin has no matcher %q", a.Key)
			}
			opts := sdk.MatchOptions{
				TestID: textbench.TestID(t.Name), TestName: t.Name, Target: a.Target,
				SuiteFile: textbench.SuiteFile, SuiteDir: textbench.SuiteDir,
			}
			inputs = append(inputs, sdk.MatchInput{Key: a.Key, Actual: a.Actual, Argument: a.Argument, Options: opts, Host: benchNoHost{}})
			matchers = append(matchers, m)
			want = append(want, a.Pass)
		}
	}
	// mcptest has the plugin check every argument before a run, and the
	// text family keeps what it decoded then: BenchmarkJudge100k does the
	// same, so the floor must too, or it would time argument decoding the
	// pipeline does not do.
	checker := ms["exact"].(sdk.ArgumentChecker) // every key shares the family
	for i, in := range inputs {
		if err := checker.CheckArgument(in.Key, in.Argument); err != nil {
			b.Fatalf("item %d (%s %s): %v", i, in.Key, in.Argument, err)
		}
	}
	ctx := context.Background()

	// Every verdict must be the generator's, as in the pipeline benchmark,
	// or the two time different work.
	for i, in := range inputs {
		r, err := matchers[i].Match(ctx, in)
		if err != nil {
			b.Fatalf("item %d (%s): %v", i, in.Key, err)
		}
		if r.Pass != want[i] {
			b.Fatalf("item %d (%s %s on %s): pass=%v, want %v", i, in.Key, in.Argument, in.Actual, r.Pass, want[i])
		}
	}

	b.ReportAllocs()
	for b.Loop() {
		for i, in := range inputs {
			if _, err := matchers[i].Match(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/assert")
}
