package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// Graded tests show their score on the rubric's scale, a failed eval its
// gates, criteria, tree walk and jurors, a deferred eval as DEFERRED, and
// the footer the run's cost and trials.
func TestEvalsRender(t *testing.T) {
	out := rendertest.Primary(t, newPlugin(), "pretty", rendertest.Finished(reporttest.Evals()))
	for _, want := range []string{
		"✓ PASS  " + reporttest.EvalJuryPassed,
		"◆ eval passed: score 4.2/5 (0.8), threshold 3.8/5 (graders split: review) · criteria (preset helpfulness) · jury of 3 × claude-sonnet-4-5 · 6 calls, 2 cached · $0.0024",
		"│ juror 2 claude-sonnet-4-5: abstained: reply was not the requested JSON",
		"│ jury: 3 jurors, 1 abstained, consensus 0.66, pass fraction 1, Krippendorff's alpha 0.42",
		"✗ FAIL  " + reporttest.EvalGatesFailed,
		`│ criterion "apologizes on error" (weight 1, required): 0.2 < 0.9 failed (required)`,
		`│ criterion "no stack traces" (weight 1, guard): 0 < 0.7 failed (guard tripped)`,
		`evidence "status 503" NOT found in the candidate`,
		`│ tree: "Does it state the refund window?" -> yes (0.8), "Does it give the exact number of days?" -> no (0.2, cached), leaf 0.4: vague about timing`,
		"score 75% (0.75), threshold 60%",
		"cell model claude-haiku-4-5 × prompt terse · 1 call, cached · $0.00",
		"~ DEFERRED " + reporttest.EvalDeferred,
		reporttest.DeferredMessage,
		"scorer house-style · 1 call · unpriced",
		"✗ agent › plan_quality", // the failed judged metric of the agent test
		"◆ metric plan_quality failed: score 0.3, threshold 0.6",
		"reason: booked before checking availability",
		"trials (3 per test): pass@3 100.0%, pass^3 0.0%, 1 flaky",
		"cost: $0.0093 (suites/evals.yml $0.0086, suites/agents.yml $0.0007) · 21 judge calls, 4 cached · budget $0.50",
		"1 deferred",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// A passing, unanimous eval is two lines: no details.
	if strings.Contains(out, "reason: matches the style guide") {
		t.Errorf("a passing eval shows its details:\n%s", out)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("control characters reached the terminal:\n%q", out)
	}
}

// A model-graded assertion deferred (no judge key) inside a test that
// failed on something else says so, rather than vanishing.
func TestDeferredAssertionShown(t *testing.T) {
	run := reporttest.Evals()
	var agent *report.Test
	for i := range run.Tests {
		if run.Tests[i].Name == reporttest.EvalAgentMetrics {
			agent = &run.Tests[i]
		}
	}
	agent.Assertions = append(agent.Assertions, report.Assertion{Index: 3, Target: "agent", Matcher: "llm-judge", Status: report.StatusDeferred,
		Error: "judge model gpt-4o needs OPENAI_API_KEY, which is not set"})
	out := renderTests(t, false, *agent)
	if want := "    ~ agent › llm-judge — deferred: judge model gpt-4o needs OPENAI_API_KEY, which is not set\n"; !strings.Contains(out, want) {
		t.Errorf("missing %q in\n%s", want, out)
	}
}
