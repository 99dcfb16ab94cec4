package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// tap-parser reads a graded run: failed evals are not ok with their
// grade in the diagnostics, a deferred eval is a SKIP (never a pass or a
// failure), passing grades keep their score, and the closing comments
// give the trials and the cost.
func TestEvalsReadBackWithTapParser(t *testing.T) {
	run := reporttest.Evals()
	tap := renderTAP(t, reporttest.EventsOf(run))
	p := parseTAP(t, tap)
	c, s := p.Complete, run.Summary
	if c.Count != s.Total || c.Fail != s.Failed || c.Skip != s.Deferred {
		t.Errorf("tap-parser counted %d tests, %d fail, %d skip; the report has %+v", c.Count, c.Fail, c.Skip, s)
	}
	byName := map[string]parsedAssert{}
	for _, a := range p.Asserts {
		byName[a.Name] = a
	}
	if d := byName[reporttest.EvalDeferred]; !d.OK || d.Skip != "deferred: "+reporttest.DeferredMessage {
		t.Errorf("deferred eval: %+v", d)
	}
	gates := byName[reporttest.EvalGatesFailed]
	ev, _ := gates.Diag["eval"].(map[string]any)
	if gates.OK || ev == nil || ev["verdict"] != "failed" || ev["score"] != 0.55 || ev["cost_usd"] != 0.0019 {
		t.Fatalf("failed eval: %+v", gates)
	}
	if msg, _ := gates.Diag["message"].(string); !strings.HasPrefix(msg, "eval score 0.55 below the threshold 0.7: required criterion") {
		t.Errorf("message %q", msg)
	}
	crit := ev["criteria"].([]any)
	if g := crit[1].(map[string]any); g["guard"] != true || g["passed"] != false {
		t.Errorf("guard criterion: %v", g)
	}
	if e := crit[2].(map[string]any); e["evidence"] != "status 503" || e["evidence_found"] != false {
		t.Errorf("evidence criterion: %v", e)
	}
	jury := byName[reporttest.EvalJuryPassed]
	jev, _ := jury.Diag["eval"].(map[string]any)
	if !jury.OK || jev == nil || jev["display"] != "4.2/5" || jev["score"] != 0.8 {
		t.Fatalf("passing juried eval: %+v", jury)
	}
	if j := jev["jury"].(map[string]any); j["alpha"] != 0.42 || j["escalated"] != true || j["abstained"] != 1.0 {
		t.Errorf("jury: %v", j)
	}
	if j := jev["jurors"].([]any)[2].(map[string]any); j["verdict"] != "abstained" {
		t.Errorf("abstaining juror: %v", j)
	}
	if sc := byName[reporttest.EvalScorerUnpriced].Diag["eval"].(map[string]any); sc["cost_usd"] != nil {
		t.Errorf("unpriced scorer cost: %v", sc["cost_usd"])
	}
	agent := byName[reporttest.EvalAgentMetrics]
	as := agent.Diag["assertions"].([]any)[0].(map[string]any)
	if m := as["eval"].(map[string]any); m["metric"] != "plan_quality" || m["verdict"] != "failed" {
		t.Errorf("judged metric: %v", as)
	}
	for _, want := range []string{
		"# trials: 3 per test, pass@3 100.0%, pass^3 0.0%, 1 flaky test (verdict pass^k)",
		"# trials of flaky summary: 2/3 trials passed, flaky (passed, failed, passed)",
		"# cost $0.0093 (suites/evals.yml $0.0086, suites/agents.yml $0.0007)",
	} {
		if !strings.Contains(tap, want) {
			t.Errorf("missing %q in\n%s", want, tap)
		}
	}
}

// A deferred model-graded assertion inside a failed test is listed in the
// diagnostics under deferred_assertions, apart from the failed ones.
func TestDeferredAssertionInDiagnostics(t *testing.T) {
	run := reporttest.Evals()
	for i := range run.Tests {
		if run.Tests[i].Name == reporttest.EvalAgentMetrics {
			run.Tests[i].Assertions = append(run.Tests[i].Assertions, report.Assertion{Index: 3, Target: "agent", Matcher: "llm-judge",
				Status: report.StatusDeferred, Error: "judge model gpt-4o needs OPENAI_API_KEY, which is not set"})
		}
	}
	p := parseTAP(t, renderTAP(t, reporttest.EventsOf(run)))
	for _, a := range p.Asserts {
		if a.Name != reporttest.EvalAgentMetrics {
			continue
		}
		d, _ := a.Diag["deferred_assertions"].([]any)
		if len(d) != 1 || d[0].(map[string]any)["status"] != "deferred" || len(a.Diag["assertions"].([]any)) != 1 {
			t.Errorf("diagnostics: %v", a.Diag)
		}
	}
}
