package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// Graded tests get a row each in the Evals table (score on the rubric's
// scale, grader, calls, cost; a deferred eval as deferred, never passed),
// failed ones their gates in the details, and the run its cost.
func TestEvalsRender(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: "markdown"}, rendertest.Finished(reporttest.Evals()))
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	doc := out.Primary
	md := checkDocument(t, doc)
	var evals *mdTable
	for i := range md.tables {
		if md.tables[i].header[0] == "Verdict" {
			evals = &md.tables[i]
		}
	}
	if evals == nil {
		t.Fatalf("no Evals table in\n%s", doc)
	}
	// 11 graded tests (the three trials included), the deferred eval and
	// the agent test's two judged metrics.
	if len(evals.rows) != 12+2-1 {
		t.Errorf("Evals table has %d rows:\n%s", len(evals.rows), doc)
	}
	for _, want := range []string{
		"| ✅ passed (split) | release summary, juried | 4.2/5 (0.8) | 3.8/5 | jury of 3 × claude-sonnet-4-5 | 6 (2 cached) | \\$0.0024 |",
		"| ⏸️ deferred | grounded answer, no key | — | — | judge model claude-sonnet-4-5 needs ANTHROPIC\\_API\\_KEY",
		"| ❌ failed | agent books a flight › `plan_quality` | 0.3 | 0.6 | judge claude-haiku-4-5 | 1 | \\$0.0004 |",
		"| 1 (cached) | \\$0.00 |",
		"scorer house-style | 1 | unpriced |",
		`**Cost:** \$0.0093 (suites/evals.yml \$0.0086, suites/agents.yml \$0.0007) · 21 judge calls, 4 cached · budget \$0.50`,
		"| ❌ failed | error answers apologize | `suites/evals.yml:14` | eval score 0.55 (threshold 0.7): required criterion",
		"| ❌ failed | agent books a flight | `suites/agents.yml:9` | `agent` › `plan_quality` — eval score 0.3 (threshold 0.6): booked before checking availability |",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %q in\n%s", want, doc)
		}
	}
	code := strings.Join(md.code, "\n")
	for _, want := range []string{
		`criterion "no stack traces" (weight 1, guard): 0 < 0.7 failed (guard tripped)`,
		`evidence "status 503" NOT found in the candidate`,
		`tree: "Does it state the refund window?" -> yes (0.8)`,
		"metric plan_quality failed: score 0.3, threshold 0.6",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("details miss %q:\n%s", want, code)
		}
	}
}

// A deferred model-graded assertion inside a failed test is named in the
// details with the key it waits for.
func TestDeferredAssertionInDetails(t *testing.T) {
	run := reporttest.Evals()
	for i := range run.Tests {
		if run.Tests[i].Name == reporttest.EvalAgentMetrics {
			run.Tests[i].Assertions = append(run.Tests[i].Assertions, report.Assertion{Index: 3, Target: "agent", Matcher: "llm-judge",
				Status: report.StatusDeferred, Error: "judge model gpt-4o needs OPENAI_API_KEY, which is not set"})
		}
	}
	c := plugintest.New(t, newPlugin(), nil)
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: "markdown"}, rendertest.Finished(run))
	checkDocument(t, out.Primary)
	if want := "**⏸️ assertion 4:** `agent` › `llm-judge` — deferred: judge model gpt-4o needs OPENAI\\_API\\_KEY, which is not set"; !strings.Contains(out.Primary, want) {
		t.Errorf("missing %q in\n%s", want, out.Primary)
	}
}
