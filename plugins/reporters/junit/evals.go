package main

import (
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// The JUnit schema gives a test case no properties, so grades, trials and
// costs go into the suite's properties, named after the test case like
// the other per-test properties: test[NAME].eval.score,
// test[NAME].assertion[2].eval.verdict, test[NAME].trials.pass_hat_k.
// Scores are on 0..1 there; the failure body shows them on the rubric's
// scale.

// addEvalProperties records a test's grade, its judged assertions' grades
// and, for a trial, how its test did over all trials.
func addEvalProperties(p *propertiesXML, run *report.Run, t *report.Test) {
	prefix := "test[" + caseName(t) + "]."
	if t.Eval != nil {
		for _, kv := range evaltext.Properties(prefix+"eval.", t.Eval) {
			p.add(kv.Name, kv.Value)
		}
	}
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Eval != nil {
			for _, kv := range evaltext.Properties(prefix+"assertion["+strconv.Itoa(a.Index)+"].eval.", a.Eval) {
				p.add(kv.Name, kv.Value)
			}
		}
	}
	if tt := evaltext.TrialOf(run, t); tt != nil {
		p.add(prefix+"trial", strconv.Itoa(t.Trial))
		p.add(prefix+"trials.passed", strconv.Itoa(tt.Passed)+"/"+strconv.Itoa(tt.Trials))
		p.add(prefix+"trials.pass_at_k", strconv.FormatBool(tt.PassAtK))
		p.add(prefix+"trials.pass_hat_k", strconv.FormatBool(tt.PassHatK))
		p.add(prefix+"trials.flaky", strconv.FormatBool(tt.Flaky))
	}
}

// addRunEvalProperties records the run's trials and costs on a suite: the
// run's totals, and what the suite's file cost.
func addRunEvalProperties(p *propertiesXML, run *report.Run, file string) {
	if tr := run.Trials; tr != nil {
		p.add("mcptest.trials.k", strconv.Itoa(tr.K))
		p.add("mcptest.trials.verdict", map[bool]string{true: "pass@k", false: "pass^k"}[tr.Pass == report.TrialsPassAny])
		p.add("mcptest.trials.pass_at_k", failtext.FormatNumber(tr.PassAtK))
		p.add("mcptest.trials.pass_hat_k", failtext.FormatNumber(tr.PassHatK))
		p.add("mcptest.trials.flaky", strconv.Itoa(tr.Flaky))
		var flaky []string
		for _, tt := range tr.Tests {
			if tt.Flaky {
				flaky = append(flaky, textsafe.CleanLineTrim(tt.Name))
			}
		}
		p.add("mcptest.trials.flaky_tests", strings.Join(flaky, ", "))
	}
	c := run.Costs
	if c == nil {
		return
	}
	p.add("mcptest.cost_usd", failtext.FormatNumber(c.TotalUSD))
	p.add("mcptest.judge_calls", strconv.Itoa(c.Calls))
	p.add("mcptest.judge_calls_cached", strconv.Itoa(c.CachedCalls))
	if c.MaxUSD != nil {
		p.add("mcptest.max_cost_usd", failtext.FormatNumber(*c.MaxUSD))
	}
	if c.Stopped {
		p.add("mcptest.max_cost_stopped", "true")
	}
	for _, sc := range c.Suites {
		if file != "" && sc.Suite == file {
			p.add("suite.cost_usd", failtext.FormatNumber(sc.USD))
		}
	}
}

// writeEval writes a grade into a failure body: its headline, then its
// reason, criteria, tree walk and jurors, indented under it.
func writeEval(b *strings.Builder, ind string, e *report.Eval) {
	if e == nil {
		return
	}
	b.WriteString(ind + evaltext.Headline(e) + "\n")
	for _, d := range evaltext.Details(e) {
		b.WriteString(ind + "  " + d + "\n")
	}
}

// evalMessage is the failure message of a failed eval.
func evalMessage(e *report.Eval) string {
	s := "eval score " + evaltext.Score(e) + " is below the threshold " + evaltext.Threshold(e)
	if e.Score >= e.Threshold {
		s = "eval failed at score " + evaltext.Score(e)
	}
	if r := textsafe.CleanLineTrim(e.Reason); r != "" {
		s += ": " + textsafe.Truncate(r, evaltext.MaxReasonRunes)
	}
	return s
}
