package evaltext

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

func evalOf(t *testing.T, run *report.Run, name string) *report.Eval {
	t.Helper()
	for i := range run.Tests {
		if run.Tests[i].Name == name {
			return run.Tests[i].Eval
		}
	}
	t.Fatalf("no test %q", name)
	return nil
}

func TestHeadlineAndDetails(t *testing.T) {
	run := reporttest.Evals()
	for _, tc := range []struct {
		name string
		want []string
	}{
		{reporttest.EvalJuryPassed, []string{
			"eval passed: score 4.2/5 (0.8), threshold 3.8/5 (graders split: review)", "criteria (preset helpfulness)",
			"jury of 3 × claude-sonnet-4-5", "6 calls, 2 cached", "$0.0024",
			`criterion "answers the question" (weight 1, cached): 4.6/5 ≥ 3.8/5 passed: States the change.; evidence "per-tenant rate limits" found in the candidate`,
			"jury: 3 jurors, 1 abstained, consensus 0.66, pass fraction 1, Krippendorff's alpha 0.42, escalated",
			"juror 1 claude-sonnet-4-5: 4.0/5 passed (cached, $0.00): fine",
			`juror 2 claude-sonnet-4-5: abstained: reply was not the requested JSON`,
		}},
		{reporttest.EvalGatesFailed, []string{
			"eval failed: score 0.55, threshold 0.7", "reason: required criterion",
			`criterion "apologizes on error" (weight 1, required): 0.2 < 0.9 failed (required): No apology.`,
			`criterion "no stack traces" (weight 1, guard): 0 < 0.7 failed (guard tripped)`,
			`evidence "status 503" NOT found in the candidate`,
			`criterion "mentions retry" (weight 1): skipped`,
			"response: Something went wrong (error 500). <b>&",
		}},
		{reporttest.EvalTreeFailed, []string{
			"tree (rubric refund-policy)",
			`tree: "Does it state the refund window?" -> yes (0.8), "Does it give the exact number of days?" -> no (0.2, cached), leaf 0.4: vague about timing`,
		}},
		{reporttest.EvalPanelPassed, []string{
			"score 75% (0.75), threshold 60%", "panel of 2 (claude-sonnet-4-5, claude-haiku-4-5)",
			"panel: 2 models, aggregate majority, tie break fail, pass fraction 1, Krippendorff's alpha -0.2",
		}},
		{reporttest.EvalMatrixCached, []string{"cell model claude-haiku-4-5 × prompt terse", "1 call, cached"}},
		{reporttest.EvalScorerUnpriced, []string{"threshold 1 (strict)", "scorer house-style", "unpriced"}},
	} {
		e := evalOf(t, run, tc.name)
		text := Headline(e) + "\n" + strings.Join(Details(e), "\n")
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: missing %q in\n%s", tc.name, w, text)
			}
		}
		if strings.ContainsAny(text, "\x1b\x07") {
			t.Errorf("%s: control characters survived: %q", tc.name, text)
		}
	}
}

func TestEscalatedAndMethod(t *testing.T) {
	run := reporttest.Evals()
	for name, want := range map[string]struct {
		method    string
		escalated bool
	}{
		reporttest.EvalJuryPassed:     {MethodJury, true},
		reporttest.EvalPanelPassed:    {MethodPanel, false},
		reporttest.EvalGatesFailed:    {MethodSingle, false},
		reporttest.EvalScorerUnpriced: {MethodScorer, false},
	} {
		e := evalOf(t, run, name)
		if got := Method(e); got != want.method {
			t.Errorf("%s: method %q, want %q", name, got, want.method)
		}
		if got := Escalated(e); got != want.escalated {
			t.Errorf("%s: escalated %v, want %v", name, got, want.escalated)
		}
	}
	mixed := &report.Eval{Form: "text", Jury: &report.EvalJury{Kind: "jury", Size: 3},
		Jurors: []report.EvalJuror{{Model: "a"}, {Model: "b"}, {Model: "a"}}}
	if g := Grader(mixed); g != "jury of 3 (a, b)" {
		t.Errorf("mixed jury grader %q", g)
	}
	if g := Grader(&report.Eval{Jury: &report.EvalJury{Kind: "jury", Size: 2}}); g != "jury of 2" {
		t.Errorf("anonymous jury grader %q", g)
	}
	split := &report.Eval{Jury: &report.EvalJury{Kind: "jury", Size: 2, PassFraction: 0.5},
		Jurors: []report.EvalJuror{{Index: 0, Passed: true}, {Index: 1}}}
	if !Escalated(split) {
		t.Error("a split jury is not escalated")
	}
}

func TestCostsAndTrials(t *testing.T) {
	run := reporttest.Evals()
	if got, want := Costs(run.Costs), "cost $0.0093 (suites/evals.yml $0.0086, suites/agents.yml $0.0007) · 21 judge calls, 4 cached · budget $0.50"; got != want {
		t.Errorf("Costs = %q, want %q", got, want)
	}
	if got, want := Trials(run.Trials), "trials: 3 per test, pass@3 100.0%, pass^3 0.0%, 1 flaky test (verdict pass^k)"; got != want {
		t.Errorf("Trials = %q, want %q", got, want)
	}
	last := &run.Tests[len(run.Tests)-1]
	if got, want := TrialTest(TrialOf(run, last)), "2/3 trials passed, flaky (passed, failed, passed)"; got != want {
		t.Errorf("TrialTest = %q, want %q", got, want)
	}
}

func TestProperties(t *testing.T) {
	e := evalOf(t, reporttest.Evals(), reporttest.EvalJuryPassed)
	got := map[string]string{}
	for _, p := range Properties("eval.", e) {
		got[p.Name] = p.Value
	}
	for k, v := range map[string]string{
		"eval.score": "0.8", "eval.display": "4.2/5", "eval.verdict": "passed", "eval.method": "jury", "eval.cost_usd": "0.0024",
		"eval.criterion.answers the question.evidence_found": "true", "eval.jury.alpha": "0.42", "eval.jury.escalated": "true",
		"eval.juror.2.verdict": "abstained", "eval.juror.0.cost_usd": "0.0012",
	} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestCleanCopies(t *testing.T) {
	run := reporttest.Evals()
	e := evalOf(t, run, reporttest.EvalGatesFailed)
	c := Clean(e)
	if strings.ContainsAny(c.Response, "\x1b\x07") || !strings.Contains(e.Response, "\x1b") {
		t.Errorf("response not cleaned, or the original changed: %q / %q", c.Response, e.Response)
	}
	c.Criteria[0].Name = "changed"
	if e.Criteria[0].Name == "changed" {
		t.Error("Clean shares the criteria with the original")
	}
	if Clean(nil) != nil {
		t.Error("Clean(nil) is not nil")
	}
}
