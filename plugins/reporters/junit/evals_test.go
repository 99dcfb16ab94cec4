package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// A graded run satisfies the JUnit schema; a failed eval is a <failure>
// whose message and body give its score, gates, criteria, tree walk and
// jurors; a deferred eval is <skipped>, never a failure; grades, trials
// and costs are suite properties.
func TestEvalsRender(t *testing.T) {
	doc := rendertest.Primary(t, newPlugin(), "junit", rendertest.Finished(reporttest.Evals()))
	validateXSD(t, doc)
	parsed := parse(t, doc)
	cases := map[string]readCase{}
	props := map[string]string{}
	failures, skipped := 0, 0
	for _, s := range parsed.Suites {
		failures += s.Failures
		skipped += s.Skipped
		for _, c := range s.Cases {
			cases[c.Name] = c
		}
		for _, p := range s.Props {
			props[p.Name] = p.Value
		}
		if s.Name == reporttest.EvalSuite+" evals" && s.prop("suite.cost_usd") != "0.0086" {
			t.Errorf("suite %s costs %q", s.Name, s.prop("suite.cost_usd"))
		}
	}
	if failures != 4 || skipped != 1 {
		t.Errorf("failures %d skipped %d, want 4 and 1 (the exit code is 1: four tests failed)", failures, skipped)
	}
	if c := cases[reporttest.EvalDeferred]; c.Skipped == nil || c.Failure != nil || !strings.Contains(c.Skipped.Message, "ANTHROPIC_API_KEY") {
		t.Errorf("deferred eval: %+v", c)
	}
	gates := cases[reporttest.EvalGatesFailed]
	if gates.Failure == nil || gates.Failure.Type != "eval" || !strings.HasPrefix(gates.Failure.Message, "eval score 0.55 is below the threshold 0.7: required criterion") {
		t.Fatalf("failed eval: %+v", gates.Failure)
	}
	for _, want := range []string{`criterion "no stack traces" (weight 1, guard): 0 < 0.7 failed (guard tripped)`, `evidence "status 503" NOT found`} {
		if !strings.Contains(gates.Failure.Body, want) {
			t.Errorf("failure body misses %q:\n%s", want, gates.Failure.Body)
		}
	}
	if tree := cases[reporttest.EvalTreeFailed]; tree.Failure == nil || !strings.Contains(tree.Failure.Body, `-> no (0.2, cached), leaf 0.4: vague about timing`) {
		t.Errorf("tree eval: %+v", tree.Failure)
	}
	if agent := cases[reporttest.EvalAgentMetrics]; agent.Failure == nil || !strings.Contains(agent.Failure.Body, "metric plan_quality failed: score 0.3, threshold 0.6") {
		t.Errorf("judged metric: %+v", agent.Failure)
	}
	jury := "test[" + reporttest.EvalJuryPassed + "].eval."
	flaky := "test[" + reporttest.EvalFlaky + " [trial 2/3]]."
	for k, v := range map[string]string{
		jury + "score": "0.8", jury + "display": "4.2/5", jury + "jury.alpha": "0.42", jury + "juror.2.verdict": "abstained",
		jury + "criterion.answers the question.evidence_found": "true", jury + "cost_usd": "0.0024",
		"test[" + reporttest.EvalScorerUnpriced + "].eval.cost_usd":           "unpriced",
		"test[" + reporttest.EvalMatrixCached + "].eval.cached":               "true",
		"test[" + reporttest.EvalAgentMetrics + "].assertion[2].eval.verdict": "failed",
		flaky + "trials.flaky": "true", flaky + "trials.passed": "2/3",
		"mcptest.trials.pass_at_k": "1", "mcptest.trials.pass_hat_k": "0", "mcptest.trials.flaky_tests": reporttest.EvalFlaky,
		"mcptest.cost_usd": "0.0093", "mcptest.judge_calls": "21",
	} {
		if props[k] != v {
			t.Errorf("property %s = %q, want %q", k, props[k], v)
		}
	}
}

// A deferred model-graded assertion inside a failed test is named in the
// failure body, and does not count as a failure of its own.
func TestDeferredAssertionInFailureBody(t *testing.T) {
	run := reporttest.Evals()
	for i := range run.Tests {
		if run.Tests[i].Name == reporttest.EvalAgentMetrics {
			run.Tests[i].Assertions = append(run.Tests[i].Assertions, report.Assertion{Index: 3, Target: "agent", Matcher: "llm-judge",
				Status: report.StatusDeferred, Error: "judge model gpt-4o needs OPENAI_API_KEY, which is not set"})
		}
	}
	doc := rendertest.Primary(t, newPlugin(), "junit", rendertest.Finished(run))
	validateXSD(t, doc)
	for _, s := range parse(t, doc).Suites {
		for _, c := range s.Cases {
			if c.Name != reporttest.EvalAgentMetrics {
				continue
			}
			if c.Failure == nil || !strings.Contains(c.Failure.Body, "agent llm-judge\n  deferred: judge model gpt-4o needs OPENAI_API_KEY") ||
				strings.Contains(c.Failure.Message, "more") {
				t.Errorf("failure: %+v", c.Failure)
			}
		}
	}
}
