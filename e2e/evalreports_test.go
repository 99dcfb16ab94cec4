package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// evalReportWants is, per bundled reporter, text its rendering of the
// saved graded run must hold: the failed eval's gate, the deferred eval
// as deferred (never passed or failed), and the run's cost and trials
// where the format has a summary.
var evalReportWants = map[string][]string{
	"pretty":        {"◆ eval failed: score 0.55, threshold 0.7", "guard tripped", "DEFERRED", "cost: $0.0093", "pass^3 0.0%", "1 deferred"},
	"markdown":      {"### Evals (13)", "⏸️ deferred | grounded answer, no key", "**Cost:** \\$0.0093", "### Trials"},
	"html":          {`id="costs"`, `id="trials"`, "graders split", "guard tripped"},
	"junit":         {`type="eval"`, `<skipped message="deferred: judge model`, `name="mcptest.cost_usd" value="0.0093"`, `name="mcptest.trials.pass_hat_k" value="0"`},
	"tap":           {"not ok 2 - error answers apologize", "# SKIP deferred: judge model", "# cost $0.0093", "# trials: 3 per test"},
	"sarif":         {`"ruleId": "mcptest/eval-failed"`, `"costs":`, `"trials":`},
	"gitlab":        {`"check_name": "mcptest/eval-failed"`, `"check_name": "mcptest/flaky-test"`, `"check_name": "mcptest/eval-cost"`},
	"ndjson":        {`"type":"run_finished"`, `"total_usd":0.0093`, `"pass_hat_k":0`},
	"json":          {`"cost_usd": 0.0024`, `"alpha": 0.42`},
	"openinference": {`"name":"mcptest.verdict"`, `"span_kind":"EVALUATOR"`, `"mcptest.verdict.method":"jury"`, `"mcptest.verdict.escalated":true`, `"mcptest.run.cost_usd":0.0093`},
	"otlp":          {`"mcptest.verdict.method"`, `"mcptest.run.trials.flaky"`},
	"badge":         {`"message":"4 failed, 1 flaky"`, `"color":"red"`},
	"agent":         {"VERDICT fail 7/12 passed, 4 failed, 1 deferred exit=1", "COST $0.0093", "repro: mcptest eval suites/evals.yml"},
}

// TestSavedEvalReportRendersInEveryFormat saves a graded run (juries,
// gates, a tree, a panel, a matrix, a deferred eval, judged metrics,
// trials, costs) as its JSON report, and re-renders it with mcptest
// report in every bundled format: the saved report passes the schema
// check mcptest report makes, every format renders it, and each tells the
// grades, the deferred eval, the costs and the trials.
func TestSavedEvalReportRendersInEveryFormat(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "run.json")
	raw, err := json.MarshalIndent(reporttest.Evals(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(saved, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	plugins := bundledReporters(t)
	for _, p := range plugins {
		if evalReportWants[p] == nil {
			t.Errorf("no expectations for the bundled reporter %s", p)
		}
	}
	for _, p := range plugins {
		t.Run(p, func(t *testing.T) {
			out := filepath.Join(dir, "out."+p)
			r := mcptest(t, "report", "--format", p, "--no-color", "-o", out, saved)
			if r.code != 0 {
				t.Fatalf("mcptest report --format %s:\n%s", p, r)
			}
			got := read(t, out)
			for _, want := range evalReportWants[p] {
				if !strings.Contains(got, want) {
					t.Errorf("%s output lacks %q:\n%s", p, want, head(got, 4000))
				}
			}
		})
	}
}

// head is the first n bytes of s, for messages.
func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// TestLiveJuryReportRendersInEveryFormat grades a real run with the
// bundled judge plugin's llm-jury (two jurors pass, one fails, through the
// provider plugins against local vendor fakes), saves its JSON report and
// re-renders it in every bundled format: the grade the judge plugin
// wrote satisfies the report schema, and the formats show it (the
// OpenInference verdict span names the jury and flags the split).
func TestLiveJuryReportRendersInEveryFormat(t *testing.T) {
	oa, an := judgeFakes(t)
	yes := vendorfake.Reply{Text: `{"score": 0.9, "pass": true, "reason": "names Paris"}`}
	oa.Push(yes, yes)
	an.Push(vendorfake.Reply{Text: `{"score": 0.2, "pass": false, "reason": "too terse"}`})
	jury := `          llm-jury:
            rubric: "The answer must name Paris."
            quorum: 0.66
            jurors:
              - model: gpt-4o-mini
              - model: claude-sonnet-4-5
              - model: gpt-4.1-mini`
	suite := writeSuite(t, strings.Replace(judgeSuite, "MATCHER", jury, 1))
	dir := t.TempDir()
	saved := filepath.Join(dir, "run.json")
	if r := mcptestEnv(t, judgeEnv(oa, an), "run", "--reporter", "json="+saved, suite); r.code != 0 {
		t.Fatalf("run:\n%s", r)
	}
	wants := map[string]string{
		"openinference": `"mcptest.verdict.method":"jury"`,
		"pretty":        "graded echo",
		"tap":           "ok 1 - graded echo",
		"junit":         `name="graded echo"`,
	}
	for _, p := range bundledReporters(t) {
		out := filepath.Join(dir, "out."+p)
		r := mcptest(t, "report", "--format", p, "--no-color", "-o", out, saved)
		if r.code != 0 {
			t.Errorf("mcptest report --format %s of a live jury run:\n%s", p, r)
			continue
		}
		if w, ok := wants[p]; ok && !strings.Contains(read(t, out), w) {
			t.Errorf("%s output lacks %q:\n%s", p, w, head(read(t, out), 4000))
		}
	}
	if spans := read(t, filepath.Join(dir, "out.openinference")); !strings.Contains(spans, `"mcptest.verdict.escalated":true`) ||
		!strings.Contains(spans, `"mcptest.verdict.juror_verdicts":["pass","fail","pass"]`) {
		t.Errorf("the jury's verdict span lacks the split:\n%s", head(spans, 4000))
	}
}
