package main

import (
	"fmt"
	"io"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/core/score"
	"github.com/mcptest/mcptest/core/toolkit/compare"
	rpt "github.com/mcptest/mcptest/sdk/report"
	"github.com/spf13/pflag"
)

// trialFlags are run's --trials and run-comparison flags.
type trialFlags struct {
	trials           int
	trialsPass       string
	compareTo        string
	failOnRegression bool
	minPassRate      float64

	prev *rpt.Run
}

func (f *trialFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.trials, "trials", 1, "run every test `N` times, each trial bypassing the result cache; the report gives pass@k and pass^k per test and overall and names the flaky tests")
	fs.StringVar(&f.trialsPass, "trials-pass", rpt.TrialsPassAll, "with --trials: a test passes when all its trials pass (all, pass^k) or when any does (any, pass@k)")
	fs.StringVar(&f.compareTo, "compare-to", "", "compare with a saved JSON report `RUN.json`: list regressions, new failures, fixed, new and removed tests")
	fs.BoolVar(&f.failOnRegression, "fail-on-regression", false, "with --compare-to: exit 1 only for regressions and new failures (tests that failed before too do not fail the run)")
	fs.Float64Var(&f.minPassRate, "min-pass-rate", 0, "exit 1 when fewer than `PERCENT` of the tests that ran passed")
}

// check validates the flags and reads the earlier report; false means
// exit 2 (the reason is printed).
func (f *trialFlags) check(stderr io.Writer) bool {
	switch {
	case f.trials < 1 || f.trials > 1000:
		fmt.Fprintf(stderr, "mcptest run: --trials %d: want 1 to 1000\n", f.trials)
		return false
	case f.trialsPass != rpt.TrialsPassAll && f.trialsPass != rpt.TrialsPassAny:
		fmt.Fprintf(stderr, "mcptest run: --trials-pass %q: want all or any\n", f.trialsPass)
		return false
	case f.failOnRegression && f.compareTo == "":
		fmt.Fprintln(stderr, "mcptest run: --fail-on-regression needs --compare-to RUN.json")
		return false
	case f.minPassRate < 0 || f.minPassRate > 100:
		fmt.Fprintf(stderr, "mcptest run: --min-pass-rate %g: want a percentage from 0 to 100\n", f.minPassRate)
		return false
	}
	if f.compareTo != "" {
		prev, err := report.ReadRun(f.compareTo)
		if err != nil {
			fmt.Fprintf(stderr, "mcptest run: --compare-to: %v\n", err)
			return false
		}
		f.prev = prev
	}
	return true
}

// apply fans the plan out into trials.
func (f *trialFlags) apply(p *plan.Plan) { p.Trials(f.trials) }

// finish sets the trials' verdict mode before the exit code is computed.
func (f *trialFlags) finish(r *rpt.Run) {
	if r.Trials != nil {
		r.Trials.Pass = f.trialsPass
	}
}

// gate prints the comparison and returns the run's exit
// code under --fail-on-regression and --min-pass-rate. An errored or
// interrupted run keeps its code.
func (f *trialFlags) gate(r *rpt.Run, stderr io.Writer) int {
	code := r.ExitCode
	if code == score.ExitError || code == exitInterrupted {
		return code
	}
	rate := compare.Compare(&rpt.Run{}, r).PassRate
	if f.prev != nil {
		cmp := compare.Compare(f.prev, r)
		cmp.Write(stderr, f.compareTo)
		if f.failOnRegression {
			code = score.ExitPassed
			if len(cmp.Regressions)+len(cmp.NewFailures) > 0 {
				code = score.ExitFailed
			}
		}
	}
	if f.minPassRate > 0 && rate < f.minPassRate {
		fmt.Fprintf(stderr, "pass rate %.1f%% is below --min-pass-rate %g%%\n", rate, f.minPassRate)
		code = score.ExitFailed
	}
	return code
}
