package evaltext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Details lists, one item a line, what a reader needs beyond the
// headline: the overall reason, each criterion, the tree walk, the jury
// and each juror. Items are single lines, cleaned and capped.
func Details(e *report.Eval) []string {
	var out []string
	if r := line(e.Reason); r != "" {
		out = append(out, "reason: "+r)
	}
	if p := line(e.Prompt); p != "" {
		out = append(out, "prompt: "+p)
	}
	if r := line(e.Response); r != "" {
		out = append(out, "response: "+r)
	}
	for i := range e.Criteria {
		out = append(out, Criterion(e, &e.Criteria[i]))
	}
	if p := Path(e); p != "" {
		out = append(out, "tree: "+p)
	}
	if j := Jury(e); j != "" {
		out = append(out, j)
	}
	for i := range e.Jurors {
		out = append(out, Juror(e, &e.Jurors[i]))
	}
	return out
}

// Criterion describes one criterion on a line: `criterion "accurate"
// (weight 1, required): 4.6/5 ≥ 3.8/5 passed: reason; evidence "…" found`.
func Criterion(e *report.Eval, c *report.EvalCriterion) string {
	var tags []string
	tags = append(tags, "weight "+Number(c.Weight))
	if c.Required {
		tags = append(tags, "required")
	}
	if c.Guard {
		tags = append(tags, "guard")
	}
	if c.Cached {
		tags = append(tags, "cached")
	}
	s := fmt.Sprintf("criterion %s (%s): ", strconv.Quote(line(c.Name)), strings.Join(tags, ", "))
	switch {
	case c.Skipped:
		s += "skipped"
	case c.Score == nil:
		s += "no score (every juror abstained) " + verdict(c.Passed)
	default:
		cmpSign := "≥"
		if *c.Score < c.Threshold {
			cmpSign = "<"
		}
		s += fmt.Sprintf("%s %s %s %s", OnScale(e, *c.Score), cmpSign, OnScale(e, c.Threshold), verdict(c.Passed))
		if !c.Passed && c.Guard {
			s += " (guard tripped)"
		} else if !c.Passed && c.Required {
			s += " (required)"
		}
	}
	if r := line(c.Reason); r != "" {
		s += ": " + r
	}
	if c.Evidence != "" {
		s += "; evidence " + strconv.Quote(line(c.Evidence))
		if c.EvidenceFound {
			s += " found in the candidate"
		} else {
			s += " NOT found in the candidate"
		}
	}
	return s
}

func verdict(passed bool) string {
	if passed {
		return "passed"
	}
	return "failed"
}

// Path writes a decision tree's walk: `"Q1?" -> yes (0.8), "Q2?" -> no
// (0.2, cached), leaf 0.4: reason`; "" for other forms.
func Path(e *report.Eval) string {
	var steps []string
	for _, st := range e.Path {
		var note []string
		if st.JudgeScore != nil {
			note = append(note, Number(*st.JudgeScore))
		}
		if st.Cached {
			note = append(note, "cached")
		}
		paren := ""
		if len(note) > 0 {
			paren = " (" + strings.Join(note, ", ") + ")"
		}
		if st.Ask != "" || st.Answer != "" {
			steps = append(steps, strconv.Quote(line(st.Ask))+" -> "+line(st.Answer)+paren)
			continue
		}
		leaf := "leaf"
		if st.Score != nil {
			leaf += " " + OnScale(e, *st.Score)
		}
		leaf += paren
		if r := line(st.Reason); r != "" {
			leaf += ": " + r
		}
		steps = append(steps, leaf)
	}
	return strings.Join(steps, ", ")
}

// Jury describes how a jury or panel combined: "jury: 3 jurors, 1
// abstained, consensus 0.66, pass fraction 1, Krippendorff's alpha 0.42";
// "" for a single judge.
func Jury(e *report.Eval) string {
	j := e.Jury
	if j == nil {
		return ""
	}
	kind := textsafe.CleanLineTrim(j.Kind)
	if kind == "" {
		kind = "jury"
	}
	noun := "jurors"
	if kind == "panel" {
		noun = "models"
	}
	parts := []string{fmt.Sprintf("%s: %d %s", kind, j.Size, noun)}
	if j.Abstained > 0 {
		parts = append(parts, fmt.Sprintf("%d abstained", j.Abstained))
	}
	if j.Consensus > 0 {
		parts = append(parts, "consensus "+Number(j.Consensus))
	}
	if j.Aggregate != "" {
		parts = append(parts, "aggregate "+textsafe.CleanLineTrim(j.Aggregate))
	}
	if j.TieBreak != "" {
		parts = append(parts, "tie break "+textsafe.CleanLineTrim(j.TieBreak))
	}
	parts = append(parts, "pass fraction "+Number(j.PassFraction))
	if j.Alpha != nil {
		parts = append(parts, "Krippendorff's alpha "+Number(*j.Alpha))
	} else {
		parts = append(parts, "Krippendorff's alpha undefined")
	}
	if Escalated(e) {
		parts = append(parts, "escalated: the graders split or abstained")
	}
	return strings.Join(parts, ", ")
}

// Juror describes one juror: "juror 2 claude-sonnet-4-5: abstained: …" or
// "juror 0 claude-sonnet-4-5: 4.4/5 passed (cached, $0.0012): reason".
func Juror(e *report.Eval, j *report.EvalJuror) string {
	s := fmt.Sprintf("juror %d %s: ", j.Index, line(j.Model))
	if j.Abstained {
		s += "abstained"
		if msg := line(j.Error); msg != "" {
			s += ": " + msg
		}
		return s
	}
	if j.Score != nil {
		s += OnScale(e, *j.Score) + " "
	}
	s += verdict(j.Passed)
	var note []string
	if j.Cached {
		note = append(note, "cached")
	}
	if j.CostUSD != nil {
		note = append(note, USD(*j.CostUSD))
	}
	if len(note) > 0 {
		s += " (" + strings.Join(note, ", ") + ")"
	}
	if r := line(j.Reason); r != "" {
		s += ": " + r
	}
	if msg := line(j.Error); msg != "" {
		s += " [error: " + msg + "]"
	}
	return s
}

// Costs says on one line what the run's model calls cost: "cost $0.0093
// (suites/evals.yml $0.0086, suites/agents.yml $0.0007) · 21 judge calls,
// 4 cached · budget $0.50"; "" for nil.
func Costs(c *report.Costs) string {
	if c == nil {
		return ""
	}
	s := "cost " + USD(c.TotalUSD)
	var per []string
	for _, sc := range c.Suites {
		per = append(per, textsafe.CleanLineTrim(sc.Suite)+" "+USD(sc.USD))
	}
	if len(per) > 0 {
		s += " (" + strings.Join(per, ", ") + ")"
	}
	if c.Calls > 0 {
		s += " · " + plural(c.Calls, "judge call")
		if c.CachedCalls > 0 {
			s += fmt.Sprintf(", %d cached", c.CachedCalls)
		}
	}
	if c.MaxUSD != nil {
		s += " · budget " + USD(*c.MaxUSD)
	}
	if c.Stopped {
		s += " · the budget stopped further judge calls"
	}
	return s
}

// Trials says on one line how a run with --trials did: "trials: 3 per
// test, pass@3 100%, pass^3 50%, 1 flaky (verdict pass^k)"; "" for nil.
func Trials(t *report.Trials) string {
	if t == nil {
		return ""
	}
	mode := "pass^k"
	if t.Pass == report.TrialsPassAny {
		mode = "pass@k"
	}
	return fmt.Sprintf("trials: %d per test, pass@%d %s, pass^%d %s, %s (verdict %s)", t.K, t.K, percent(t.PassAtK), t.K, percent(t.PassHatK),
		plural(t.Flaky, "flaky test"), mode)
}

// TrialTest says on one line how one test's trials went: "2/3 trials
// passed, flaky (passed, failed, passed)".
func TrialTest(tt *report.TrialTest) string {
	var sts []string
	for _, st := range tt.Statuses {
		sts = append(sts, textsafe.CleanLineTrim(string(st)))
	}
	label := "passed every trial"
	switch {
	case tt.Flaky:
		label = "flaky"
	case !tt.PassAtK:
		label = "failed every trial"
	}
	return fmt.Sprintf("%d/%d trials passed, %s (%s)", tt.Passed, tt.Trials, label, strings.Join(sts, ", "))
}

func percent(v float64) string {
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// TrialOf finds the trials entry of test t (by its TrialOf id); nil when
// the run has no trials or t is not a trial.
func TrialOf(run *report.Run, t *report.Test) *report.TrialTest {
	if run.Trials == nil || t.TrialOf == "" {
		return nil
	}
	for i := range run.Trials.Tests {
		if run.Trials.Tests[i].ID == t.TrialOf {
			return &run.Trials.Tests[i]
		}
	}
	return nil
}
