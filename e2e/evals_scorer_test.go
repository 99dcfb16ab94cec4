package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/testbin"
	"github.com/mcptest/mcptest/sdk/report"
)

const scorerEvalSuite = `
servers:
  demo:
    command: ["DEMO"]
scorers:
  - {name: free, type: exec, command: ["GRADER", "null-cost"]}
  - {name: paid, type: exec, command: ["GRADER", "grade"]}
evals:
  - {name: free rain, server: demo, prompt: "weather?", response: "rain all day", rubric: sunny, scorer: free}
  - {name: paid sun, server: demo, prompt: "weather?", response: "sunny skies", rubric: sunny, scorer: paid}
  - {name: paid again, server: demo, prompt: "weather tomorrow?", response: "sunny again", rubric: sunny, scorer: paid}
`

// TestEvalScorers: an eval naming a scorers: entry is graded by that
// scorer's plugin (the bundled exec scorer running a real grader) instead
// of a judge: its verdict, score and reported cost land in the grade
// (cost_usd null leaves the cost unknown). Verdicts are cached like the
// judge's (a second run with the same --cache-dir asks no scorer), and
// --max-cost counts what scorers report: a null cost counts nothing, a
// paid verdict spends the budget and the next scorer call is refused. An
// unknown scorer type fails before anything starts.
func TestEvalScorers(t *testing.T) {
	grader := testbin.Build(t, "github.com/mcptest/mcptest/internal/testbin/testdata/scorer")
	suite := writeSuite(t, strings.ReplaceAll(scorerEvalSuite, "GRADER", grader))
	out := filepath.Join(t.TempDir(), "run.json")
	cache := t.TempDir()
	env := evalJudgeEnv(nil, nil)
	r := mcptestEnv(t, env, "eval", "--cache-dir", cache, "--reporter", "json="+out, suite)
	run := readRun(t, out)
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), []byte(read(t, out)))
	if r.code != 1 || len(run.Tests) != 3 {
		t.Fatalf("want exit 1 (rain is not sunny):\n%s", r)
	}
	free, paid := run.Tests[0], run.Tests[1]
	if free.Status != report.StatusFailed || free.Eval == nil || free.Eval.Form != "scorer" || free.Eval.Scorer != "free" || free.Eval.CostUSD != nil {
		t.Errorf("free: %s %+v", free.Status, free.Eval)
	}
	if paid.Status != report.StatusPassed || paid.Eval == nil || paid.Eval.CostUSD == nil || *paid.Eval.CostUSD != 0.25 || paid.Eval.Cached {
		t.Errorf("paid: %s %+v", paid.Status, paid.Eval)
	}
	if run.Costs == nil || run.Costs.TotalUSD != 0.5 || run.Costs.Calls != 3 {
		t.Errorf("costs: %+v", run.Costs)
	}
	r = mcptestEnv(t, env, "eval", "--cache-dir", cache, "--reporter", "json="+out, suite)
	run = readRun(t, out)
	if r.code != 1 || !run.Tests[1].Eval.Cached || run.Costs.CachedCalls != 3 || run.Costs.TotalUSD != 0 {
		t.Errorf("cached run: exit %d %+v %+v", r.code, run.Tests[1].Eval, run.Costs)
	}

	r = mcptestEnv(t, env, "eval", "--no-cache", "--jobs", "1", "--max-cost", "0.1", "--reporter", "json="+out, suite)
	run = readRun(t, out)
	if r.code != 2 || run.Tests[0].Status != report.StatusFailed || run.Tests[1].Status != report.StatusPassed ||
		run.Tests[2].Status != report.StatusErrored || run.Tests[2].Error.Kind != "max_cost" || !run.Costs.Stopped {
		t.Fatalf("--max-cost 0.1: exit %d %+v %+v\n%s", r.code, run.Tests, run.Costs, r)
	}

	bad := writeSuite(t, strings.Replace(strings.ReplaceAll(scorerEvalSuite, "GRADER", grader), "type: exec, command: [\""+grader+"\", \"grade\"]", "type: braintrust", 1))
	r = mcptestEnv(t, env, "eval", bad)
	if r.code != 2 || !strings.Contains(r.stderr, "braintrust") {
		t.Fatalf("unknown scorer type: exit %d\n%s", r.code, r)
	}
	assertNoOrphans(t)
}
