package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// A graded run: the verdict line follows the exit code, trials and cost
// follow it, a failed eval lists its gates and a repro through mcptest
// eval (mcptest run skips evals), and the deferred eval is counted, not
// listed.
func TestEvals(t *testing.T) {
	out := rendertest.Primary(t, newPlugin(), "agent", rendertest.Finished(reporttest.Evals()))
	for _, s := range []string{
		"VERDICT fail 7/12 passed, 4 failed, 1 deferred exit=1\n",
		"TRIALS 3 per test, pass@3 100.0%, pass^3 0.0%, 1 flaky test (verdict pass^k)\n",
		"COST $0.0093 (suites/evals.yml $0.0086, suites/agents.yml $0.0007) · 21 judge calls, 4 cached · budget $0.50\n",
		"FAIL suites/evals.yml::evals::error answers apologize\n",
		"  eval: eval failed: score 0.55, threshold 0.7",
		`  eval.criterion "no stack traces" (weight 1, guard): 0 < 0.7 failed (guard tripped)`,
		"  repro: mcptest eval suites/evals.yml --id 'suites/evals.yml::evals::error answers apologize'\n",
		"  eval: metric plan_quality failed: score 0.3, threshold 0.6",
		"  repro: mcptest run suites/agents.yml --id",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, reporttest.EvalDeferred) || strings.Contains(out, "\x1b") {
		t.Errorf("the deferred eval is listed, or an escape got through:\n%s", out)
	}
}

// A deferred model-graded assertion in a failed test is named with the
// key it waits for.
func TestDeferredAssertion(t *testing.T) {
	run := reporttest.Evals()
	for i := range run.Tests {
		if run.Tests[i].Name == reporttest.EvalAgentMetrics {
			run.Tests[i].Assertions = append(run.Tests[i].Assertions, report.Assertion{Index: 3, Target: "agent", Matcher: "llm-judge",
				Status: report.StatusDeferred, Error: "judge model gpt-4o needs OPENAI_API_KEY, which is not set"})
		}
	}
	out := rendertest.Primary(t, newPlugin(), "agent", rendertest.Finished(run))
	if want := "  deferred: agent llm-judge: judge model gpt-4o needs OPENAI_API_KEY, which is not set\n"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}
