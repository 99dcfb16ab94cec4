package main

import (
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// evalView is a grade under its test or assertion: the headline (score on
// the rubric's scale, threshold, grader, calls, cost), then the reason,
// criteria, tree walk and jurors, one line each.
type evalView struct {
	Class, Verdict, Score, Threshold, Headline string
	Escalated                                  bool
	Details                                    []string
}

// newEvalView builds the view of a grade; nil for none. Text is cleaned by
// evaltext and escaped by the template.
func newEvalView(e *report.Eval) *evalView {
	if e == nil {
		return nil
	}
	v := &evalView{Class: "st-passed", Verdict: evaltext.Verdict(e), Score: evaltext.Score(e), Threshold: evaltext.Threshold(e),
		Headline: evaltext.Headline(e), Escalated: evaltext.Escalated(e), Details: evaltext.Details(e)}
	if !e.Passed {
		v.Class = "st-failed"
	}
	return v
}

// trialsView is the run's trials: pass@k and pass^k overall, and a row per
// test that did not pass every trial.
type trialsView struct {
	Summary string
	Rows    []trialRow
}

// trialRow is one test that did not pass every trial.
type trialRow struct {
	Name, Passed, Label, Class, Statuses string
}

func newTrialsView(tr *report.Trials) *trialsView {
	if tr == nil {
		return nil
	}
	v := &trialsView{Summary: evaltext.Trials(tr)}
	for _, tt := range tr.Tests {
		if tt.PassHatK {
			continue
		}
		row := trialRow{Name: textsafe.Clean(tt.Name), Passed: strconv.Itoa(tt.Passed) + "/" + strconv.Itoa(tt.Trials),
			Label: "failed every trial", Class: "st-failed"}
		if tt.Flaky {
			row.Label, row.Class = "flaky", "st-warned"
		}
		var sts []string
		for _, st := range tt.Statuses {
			sts = append(sts, textsafe.Clean(string(st)))
		}
		row.Statuses = strings.Join(sts, ", ")
		v.Rows = append(v.Rows, row)
	}
	return v
}
