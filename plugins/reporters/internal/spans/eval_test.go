package spans_test

import (
	"slices"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// Every grade gets an EVALUATOR span under its test: the eval's own, and
// one per judged assertion; a deferred eval gets none. The spans carry
// the consensus verdict, the method, the score, the escalation flag and
// the jurors; ids are derived, so two builds agree and no two spans
// share one.
func TestVerdictSpansOfGrades(t *testing.T) {
	run := reporttest.Evals()
	tree := spans.Build(run)
	if again := spans.Build(reporttest.Evals()); !slices.EqualFunc(tree, again, func(a, b spans.Span) bool {
		return a.SpanID == b.SpanID && a.ParentSpanID == b.ParentSpanID
	}) {
		t.Error("two builds of the same run differ in ids")
	}
	ids := map[string]bool{}
	names := map[string]string{} // test span id -> test name
	var verdicts []spans.Span
	for _, sp := range tree {
		if ids[sp.SpanID] {
			t.Errorf("span id %s twice", sp.SpanID)
		}
		ids[sp.SpanID] = true
		switch sp.Name {
		case spans.NameTest:
			names[sp.SpanID] = sp.Attributes["mcptest.test.name"].(string)
		case spans.NameVerdict:
			if sp.Kind != spans.KindEvaluator {
				t.Errorf("verdict span of kind %s", sp.Kind)
			}
			verdicts = append(verdicts, sp)
		}
	}
	if len(verdicts) != 12 {
		t.Fatalf("%d verdict spans, want 12 (ten evals, two judged metrics)", len(verdicts))
	}
	by := map[string][]spans.Span{}
	for _, v := range verdicts {
		by[names[v.ParentSpanID]] = append(by[names[v.ParentSpanID]], v)
	}
	if len(by[reporttest.EvalDeferred]) != 0 {
		t.Error("the deferred eval has a verdict span")
	}
	jury := by[reporttest.EvalJuryPassed][0].Attributes
	for k, want := range map[string]any{
		"mcptest.verdict.verdict": "pass", "mcptest.verdict.method": "jury", "mcptest.verdict.score": 0.8, "mcptest.verdict.escalated": true,
		"mcptest.verdict.display": "4.2/5", "mcptest.verdict.jury.alpha": 0.42, "mcptest.verdict.jury.abstained": 1,
		"mcptest.verdict.jurors.0.provider": "anthropic", "mcptest.verdict.jurors.0.cost_usd": 0.0012, "mcptest.verdict.jurors.2.verdict": "abstained",
		"mcptest.verdict.criteria.0.evidence_found": true, "mcptest.verdict.cost_usd": 0.0024, "mcptest.verdict.cost_known": true,
	} {
		if jury[k] != want {
			t.Errorf("jury span %s = %v, want %v", k, jury[k], want)
		}
	}
	if v := jury["mcptest.verdict.juror_verdicts"].([]string); !slices.Equal(v, []string{"pass", "pass", "abstained"}) {
		t.Errorf("juror verdicts %v", v)
	}
	gates := by[reporttest.EvalGatesFailed][0]
	if gates.StatusCode != spans.StatusError || gates.Attributes["mcptest.verdict.criteria.1.guard"] != true ||
		gates.Attributes["mcptest.verdict.criteria.2.evidence_found"] != false || gates.Attributes["mcptest.verdict.escalated"] != false {
		t.Errorf("failed eval span: %s %v", gates.StatusCode, gates.Attributes)
	}
	if p := by[reporttest.EvalPanelPassed][0].Attributes; p["mcptest.verdict.method"] != "panel" || p["mcptest.verdict.jury.aggregate"] != "majority" {
		t.Errorf("panel span: %v", p)
	}
	if s := by[reporttest.EvalScorerUnpriced][0].Attributes; s["mcptest.verdict.method"] != "scorer" || s["mcptest.verdict.cost_known"] != false {
		t.Errorf("scorer span: %v", s)
	} else if _, ok := s["mcptest.verdict.cost_usd"]; ok {
		t.Error("an unpriced grade has a cost")
	}
	agent := by[reporttest.EvalAgentMetrics]
	if len(agent) != 2 || agent[1].Attributes["mcptest.verdict.method"] != "metric" || agent[1].Attributes["mcptest.verdict.assertion_matcher"] != "plan_quality" ||
		agent[1].StatusCode != spans.StatusError {
		t.Errorf("judged metric spans: %+v", agent)
	}
	for _, sp := range tree {
		if sp.Name == spans.NameTest && sp.Attributes["mcptest.test.name"] == reporttest.EvalFlaky+" [trial 2/3]" {
			if a := sp.Attributes; a["mcptest.test.trial"] != 2 || a["mcptest.test.trials.flaky"] != true || a["mcptest.test.trials.passed"] != 2 {
				t.Errorf("trial span: %v", a)
			}
		}
	}
	root := tree[0].Attributes
	if root["mcptest.run.cost_usd"] != 0.0093 || root["mcptest.run.trials.flaky"] != 1 || root["mcptest.run.trials.pass_hat_k"] != 0.0 {
		t.Errorf("run span: %v", root)
	}
}
