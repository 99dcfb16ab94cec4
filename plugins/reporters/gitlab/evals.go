package main

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/findings"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Check names of the informational issues about grades: Code Quality has
// no run summary, so a flaky test and a suite's model cost are info
// issues on the suite file, with fingerprints that stay the same from
// run to run (an unchanged cost or flaky test is not "new" in a merge
// request).
const (
	checkFlaky = "mcptest/flaky-test"
	checkCost  = "mcptest/eval-cost"
)

// content is a Code Climate issue's long description (Markdown), which
// GitLab ignores and Code Climate consumers show.
type content struct {
	Body string `json:"body"`
}

// findingContent is the long description of a finding about a grade:
// the grade's headline, reason, criteria, tree walk and jurors; nil for
// other findings.
func findingContent(f *findings.Finding) *content {
	e := f.Test.Eval
	if f.Assertion != nil {
		e = f.Assertion.Eval
	}
	if e == nil {
		return nil
	}
	lines := append([]string{evaltext.Headline(e)}, evaltext.Details(e)...)
	return &content{Body: strings.Join(lines, "\n")}
}

// trialNote is what a finding of one trial adds to its description: how
// its test did over all trials.
func trialNote(run *report.Run, t *report.Test) string {
	if tt := evaltext.TrialOf(run, t); tt != nil {
		return " [" + evaltext.TrialTest(tt) + "]"
	}
	return ""
}

// evalIssues are the informational issues of a run: one per flaky test,
// one per suite file whose model calls cost something.
func evalIssues(run *report.Run) []issue {
	var out []issue
	if tr := run.Trials; tr != nil {
		for i := range tr.Tests {
			tt := &tr.Tests[i]
			if !tt.Flaky {
				continue
			}
			file, line := "", 1
			for j := range run.Tests {
				if run.Tests[j].TrialOf == tt.ID {
					file, line = run.Tests[j].File, max(run.Tests[j].Line, 1)
					break
				}
			}
			out = append(out, infoIssue(run, checkFlaky, "flaky test "+textsafe.CleanLineTrim(tt.Name)+": "+evaltext.TrialTest(tt)+
				" ("+evaltext.Trials(tr)+")", "flaky\x00"+tt.ID, file, line))
		}
	}
	if c := run.Costs; c != nil {
		total := evaltext.Costs(c)
		for _, sc := range c.Suites {
			out = append(out, infoIssue(run, checkCost, "model calls of "+textsafe.CleanLineTrim(sc.Suite)+" cost "+evaltext.USD(sc.USD)+
				" (run: "+total+")", "cost\x00"+sc.Suite, sc.Suite, 1))
		}
	}
	return out
}

func infoIssue(run *report.Run, check, desc, key, file string, line int) issue {
	sum := sha256.Sum256([]byte(key))
	return issue{
		Type: "issue", CheckName: check, Description: textsafe.Truncate(textsafe.CleanLineTrim(desc), findings.SummaryRunes),
		Categories: []string{"Performance"}, Severity: severityInfo, Fingerprint: hex.EncodeToString(sum[:]),
		Location: location{Path: issuePath(run, file), Lines: lines{Begin: line}},
	}
}
