package e2e

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/sdk/report"
)

const judgingSuite = `
servers:
  demo:
    command: ["DEMO"]
evals:
  - name: repaired
    server: demo
    prompt: p
    response: "an answer"
    judge: {model: claude-sonnet-4-5}
    rubric: "REPAIRED: the answer is fine."
  - name: garbled
    server: demo
    prompt: p
    response: "an answer"
    judge: {model: claude-sonnet-4-5}
    rubric: "GARBLED: the answer is fine."
  - name: juried
    server: demo
    prompt: p
    response: "an answer"
    judge: {model: gpt-4o, jury: {size: 3, consensus: 0.66}}
    rubric: "JURIED: the answer is fine."
  - name: paneled
    server: demo
    prompt: p
    response: "an answer"
    judge: {panel: [gpt-4o, gpt-4o-mini], aggregate: majority}
    rubric: "PANELED: the answer is fine."
  - name: grid
    server: demo
    prompt: "Summarize the release."
    response: "2.3.0 added rate limits."
    judge: {model: gpt-4o}
    rubric: "MATRIX: accurate summary."
    matrix:
      models: [gpt-4o, gpt-4o-mini]
      prompts: ["Summarize the release.", "Summarize the release in one sentence."]
`

// TestEvalJudgingPaths: a reply that is not the requested JSON is
// repaired once (two calls, graded); one that stays malformed errors the
// eval with an excerpt of the raw reply (exit 2); a jury of three grades
// three times and passes on consensus with alpha and juror rows; a panel
// grades once per model and combines by majority; a matrix makes one row
// per cell, named for its coordinates, each judged by its cell's model
// on its cell's prompt.
func TestEvalJudgingPaths(t *testing.T) {
	an := newJudgeFake(t, vendorfake.Anthropic, anthropicJudgeKey,
		&judgeRule{needle: "REPAIRED", replies: []string{"Sure! I think it is fine.", verdict(0.9, "fine after all")}},
		&judgeRule{needle: "GARBLED", replies: []string{"I refuse to answer in JSON today"}})
	oa := newJudgeFake(t, vendorfake.OpenAI, openAIJudgeKey,
		&judgeRule{needle: "JURIED", replies: []string{verdict(0.9, "a"), verdict(0.8, "b"), verdict(0.2, "c")}},
		&judgeRule{needle: "PANELED", also: `"model":"gpt-4o-mini"`, replies: []string{verdict(0.3, "mini says no")}},
		&judgeRule{needle: "PANELED", replies: []string{verdict(0.95, "big says yes")}},
		&judgeRule{needle: "MATRIX", replies: []string{verdict(0.75, "ok")}})
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, evalJudgeEnv(oa, an), "eval", "--reporter", "json="+out, writeSuite(t, judgingSuite))
	if r.code != 2 {
		t.Fatalf("want exit 2 (the garbled eval errors):\n%s", r)
	}
	run := readRun(t, out)
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), []byte(read(t, out)))
	byName := map[string]report.Test{}
	for _, tt := range run.Tests {
		byName[tt.Name] = tt
	}
	if tt := byName["repaired"]; tt.Status != report.StatusPassed || tt.Eval == nil || tt.Eval.Calls != 2 || tt.Eval.Score != 0.9 {
		t.Errorf("repaired: %s %+v", tt.Status, tt.Eval)
	}
	if tt := byName["garbled"]; tt.Status != report.StatusErrored || tt.Error == nil || !strings.Contains(tt.Error.Message, "I refuse to answer in JSON today") {
		t.Errorf("garbled: %s %+v", tt.Status, tt.Error)
	}
	jur := byName["juried"]
	if jur.Status != report.StatusPassed || jur.Eval == nil || jur.Eval.Jury == nil || jur.Eval.Jury.Kind != "jury" || jur.Eval.Jury.Size != 3 ||
		len(jur.Eval.Jurors) != 3 || jur.Eval.Calls != 3 {
		t.Fatalf("juried: %s %+v", jur.Status, jur.Eval)
	}
	if pf := jur.Eval.Jury.PassFraction; pf < 0.66 || pf > 0.67 {
		t.Errorf("jury pass fraction %v", pf)
	}
	pan := byName["paneled"]
	if pan.Eval == nil || pan.Eval.Jury == nil || pan.Eval.Jury.Kind != "panel" || len(pan.Eval.Jurors) != 2 || pan.Eval.Jury.Aggregate != "majority" {
		t.Fatalf("paneled: %s %+v", pan.Status, pan.Eval)
	}
	// One pass and one fail: an even split, broken by the default fail.
	if pan.Status != report.StatusFailed || pan.Eval.Jurors[0].Model != "gpt-4o" || pan.Eval.Jurors[1].Model != "gpt-4o-mini" {
		t.Errorf("paneled: %s %+v", pan.Status, pan.Eval.Jurors)
	}
	for _, cell := range []struct{ name, model, prompt string }{
		{"grid [model=gpt-4o, prompt 1]", "gpt-4o", "Summarize the release."},
		{"grid [model=gpt-4o, prompt 2]", "gpt-4o", "Summarize the release in one sentence."},
		{"grid [model=gpt-4o-mini, prompt 1]", "gpt-4o-mini", "Summarize the release."},
		{"grid [model=gpt-4o-mini, prompt 2]", "gpt-4o-mini", "Summarize the release in one sentence."},
	} {
		tt, ok := byName[cell.name]
		if !ok || tt.Status != report.StatusPassed || tt.Eval.Cell == nil || tt.Eval.Cell.Model != cell.model || tt.Eval.JudgeModel != cell.model || tt.Eval.Prompt != cell.prompt {
			t.Errorf("%s: %v %s %+v", cell.name, ok, tt.Status, tt.Eval)
		}
	}
	// Every bundled format re-renders the saved eval run.
	for _, format := range []string{"pretty", "junit", "markdown", "html", "sarif", "gitlab", "ndjson", "tap", "openinference", "badge"} {
		if rr := mcptest(t, "report", "--format", format+"="+filepath.Join(t.TempDir(), "out."+format), out); rr.code != 0 {
			t.Errorf("report --format %s of an eval run:\n%s", format, rr)
		}
	}
	sawMini := false
	for _, req := range oa.Requests() {
		b := string(req.Body)
		if strings.Contains(b, "MATRIX") && strings.Contains(b, `"model":"gpt-4o-mini"`) && strings.Contains(b, "in one sentence") {
			sawMini = true
		}
	}
	if !sawMini {
		t.Error("no matrix cell reached gpt-4o-mini with its prompt")
	}
	assertNoOrphans(t)
}

const deferSuite = `
servers:
  demo:
    command: ["DEMO"]
evals:
  - name: needs a judge
    server: demo
    prompt: p
    response: "fine"
    rubric:
      criteria:
        - {name: one, description: "ONE: the answer is fine."}
        - {name: two, description: "TWO: the answer is short.", when: {contains: fine}}
        - {name: three, description: "THREE: only about cats.", when: {contains: cats}}
  - name: second
    server: demo
    prompt: p
    response: "fine"
    judge: {model: gpt-4o}
    rubric: "SECOND: fine."
`

// TestEvalDeferExplainAndMaxCost: without any key an eval is deferred
// (exit 0, not passed, the note names the variable); --require-models
// makes that exit 2. --explain prints each eval's rubric, candidate,
// judge, calls, projected cost and prompts and contacts no provider.
// --max-cost stops before the call that would cross it: the eval graded
// first keeps its grade, the next ends errored with the reason.
func TestEvalDeferExplainAndMaxCost(t *testing.T) {
	suite := writeSuite(t, deferSuite)
	out := filepath.Join(t.TempDir(), "run.json")
	env := evalJudgeEnv(nil, nil)
	r := mcptestEnv(t, env, "eval", "--no-color", "--reporter", "pretty", "--reporter", "json="+out, suite)
	run := readRun(t, out)
	if r.code != 0 || run.Summary.Deferred != 2 || run.Summary.Passed != 0 || run.Tests[0].Error == nil ||
		!strings.Contains(run.Tests[0].Error.Message, "ANTHROPIC_API_KEY") || !strings.Contains(run.Tests[1].Error.Message, "OPENAI_API_KEY") {
		t.Fatalf("deferred: exit %d %+v\n%s", r.code, run.Tests, r)
	}
	mustContain(t, "pretty", r.stdout, "DEFERRED")
	r = mcptestEnv(t, append(env, "MCPTEST_REQUIRE_MODELS=1"), "eval", "--reporter", "json="+out, suite)
	if r.code != 2 || readRun(t, out).Tests[0].Status != report.StatusErrored {
		t.Fatalf("--require-models: exit %d\n%s", r.code, r)
	}

	oa := newJudgeFake(t, vendorfake.OpenAI, openAIJudgeKey,
		&judgeRule{needle: "ONE:", replies: []string{verdict(1, "yes")}},
		&judgeRule{needle: "TWO:", replies: []string{verdict(1, "yes")}},
		&judgeRule{needle: "SECOND:", replies: []string{verdict(1, "yes")}})
	env = evalJudgeEnv(oa, nil)
	r = mcptestEnv(t, env, "eval", "--explain", suite)
	if r.code != 0 || oa.calls.Load() != 0 {
		t.Fatalf("--explain: exit %d, %d requests\n%s", r.code, oa.calls.Load(), r)
	}
	mustContain(t, "explain", r.stdout,
		`eval "needs a judge"`, "rubric: criteria, threshold 0.70", "candidate: the fixed response", "judge: gpt-4.1-mini",
		"judge calls: 2", "prompt 1 of 3 (criterion one)", "ONE: the answer is fine.", "THREE: only about cats.",
		`eval "second"`, "judge calls: 1", "2 evals, 3 judge calls projected (at most $", "nothing was sent")
	m := regexp.MustCompile(`(?m)^  projected cost: at most \$([0-9.]+)$`).FindAllStringSubmatch(r.stdout, -1)
	if len(m) != 2 {
		t.Fatalf("projected costs: %q", m)
	}
	// Enough for the first eval's two calls but not for the second's
	// (run one after another): each call reserves its projection and
	// settles at its real, smaller cost.
	first, _ := strconv.ParseFloat(m[0][1], 64)
	budget := first + 0.0002
	r = mcptestEnv(t, env, "eval", "--jobs", "1", "--max-cost", strconv.FormatFloat(budget, 'f', 6, 64), "--reporter", "json="+out, suite)
	run = readRun(t, out)
	validateJSONSchema(t, filepath.Join(root, "schemas/report.v1.json"), []byte(read(t, out)))
	if r.code != 2 || run.Tests[0].Status != report.StatusPassed || run.Tests[1].Status != report.StatusErrored ||
		run.Tests[1].Error == nil || run.Tests[1].Error.Kind != "max_cost" || !strings.Contains(run.Tests[1].Error.Message, "--max-cost") {
		t.Fatalf("--max-cost %v: exit %d %+v\n%s", budget, r.code, run.Tests, r)
	}
	if run.Costs == nil || run.Costs.MaxUSD == nil || !run.Costs.Stopped || run.Costs.TotalUSD <= 0 || run.Costs.TotalUSD > budget {
		t.Fatalf("costs: %+v", run.Costs)
	}
	if n := oa.calls.Load(); n != 2 {
		t.Errorf("%d judge requests, want the first eval's 2", n)
	}
}
