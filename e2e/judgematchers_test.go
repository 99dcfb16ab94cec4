package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// The model-graded matchers run in the bundled judge plugin, which reaches
// models only through mcptest's Host service; the host routes to the
// bundled anthropic and openai provider plugins, which talk to local fakes
// of the vendors' wire formats (no real vendor is ever called).

// judgeSuite grades the demo echo of "Paris is the capital of France"
// with MATCHER.
const judgeSuite = `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: graded echo
    server: demo
    tool: echo
    args: {message: "Paris is the capital of France"}
    expect:
      - target: result.content[0].text
        matcher:
MATCHER
`

// judgeRun runs a judge suite with the fakes' URLs and keys, and returns
// the result and the JSON report (every run here gets as far as writing
// one).
func judgeRun(t *testing.T, env []string, matcher string, extra ...string) (result, *rpt.Run) {
	t.Helper()
	suite := writeSuite(t, strings.Replace(judgeSuite, "MATCHER", matcher, 1))
	out := filepath.Join(t.TempDir(), "run.json")
	args := append([]string{"run", "--reporter", "json=" + out, "--reporter", "pretty"}, extra...)
	r := mcptestEnv(t, env, append(args, suite)...)
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("no report was written:\n%s", r)
	}
	return r, readRun(t, out)
}

// judgeEnv points both provider families at their fakes, with keys.
func judgeEnv(oa, an *vendorfake.Fake) []string {
	return []string{
		"OPENAI_API_KEY=" + oa.Key, "OPENAI_BASE_URL=" + oa.URL,
		"ANTHROPIC_API_KEY=" + an.Key, "ANTHROPIC_BASE_URL=" + an.URL,
		"MCPTEST_JUDGE_MODEL=", "MCPTEST_REQUIRE_MODELS=", "MCPTEST_PROVIDER_BACKOFF=1ms",
	}
}

func judgeFakes(t *testing.T) (*vendorfake.Fake, *vendorfake.Fake) {
	oa := vendorfake.New(t, vendorfake.OpenAI)
	oa.Key = "sk-openai-judge-0123456789"
	an := vendorfake.New(t, vendorfake.Anthropic)
	an.Key = "sk-ant-judge-0123456789"
	return oa, an
}

const llmJudge = `          llm-judge:
            rubric: "The answer must name Paris."
            threshold: 0.8
            model: gpt-4o-mini`

// TestLLMJudgeEndToEnd: a judge's pass and fail, a malformed reply
// repaired by the one repair turn, one malformed twice (the assertion
// errors with the reply's start, secrets masked), and a named matcher on
// the default judge model.
func TestLLMJudgeEndToEnd(t *testing.T) {
	oa, an := judgeFakes(t)
	env := judgeEnv(oa, an)

	oa.Push(vendorfake.Reply{Text: `{"score": 0.9, "pass": true, "reason": "names Paris"}`, InputTokens: 50, OutputTokens: 10})
	r, run := judgeRun(t, env, llmJudge)
	if r.code != 0 {
		t.Fatalf("pass:\n%s", r)
	}
	body := string(oa.Requests()[0].Body)
	if !strings.Contains(body, "The answer must name Paris.") || !strings.Contains(body, "Paris is the capital of France") ||
		oa.Requests()[0].JSON()["model"] != "gpt-4o-mini" {
		t.Fatalf("the vendor got %s", body)
	}
	a := run.Tests[0].Assertions[0]
	if a.Status != rpt.StatusPassed || a.Eval == nil || a.Eval.Score != 0.9 || a.Eval.Reason != "names Paris" || a.Eval.JudgeModel == "" {
		t.Fatalf("assertion = %+v eval %+v", a, a.Eval)
	}

	oa.Push(vendorfake.Reply{Text: `{"score": 0.4, "pass": false, "reason": "it hedges about the capital"}`})
	r, run = judgeRun(t, env, llmJudge)
	if r.code != 1 {
		t.Fatalf("fail:\n%s", r)
	}
	mustContain(t, "the failure", string(run.Tests[0].Assertions[0].Failure), "0.4", "0.8", "it hedges about the capital")
	mustContain(t, "pretty output", r.stdout, "it hedges about the capital")

	before := len(oa.Requests())
	oa.Push(vendorfake.Reply{Text: "Sure, I'd give it a 0.9!"}, vendorfake.Reply{Text: `{"score": 0.95, "pass": true, "reason": "fine"}`})
	if r, _ = judgeRun(t, env, llmJudge); r.code != 0 || len(oa.Requests()) != before+2 {
		t.Fatalf("repaired: %d requests\n%s", len(oa.Requests())-before, r)
	}
	repair := string(oa.Requests()[before+1].Body)
	mustContain(t, "the repair request", repair, "could not be read", "Sure, I'd give it a 0.9!")

	oa.Push(vendorfake.Reply{Text: "no JSON from me"}, vendorfake.Reply{Text: "still none, and my key is " + oa.Key})
	r, run = judgeRun(t, env, llmJudge)
	if r.code != 2 {
		t.Fatalf("malformed twice should error:\n%s", r)
	}
	a = run.Tests[0].Assertions[0]
	if a.Status != rpt.StatusErrored || !strings.Contains(a.Error, "unreadable after one repair") || !strings.Contains(a.Error, "still none") ||
		strings.Contains(a.Error+r.stdout+r.stderr, oa.Key) {
		t.Fatalf("malformed twice: %+v\n%s", a, r)
	}
	if oa.Pending() != 0 {
		t.Fatalf("%d replies left: a judge was asked more than twice", oa.Pending())
	}

	// A named matcher without a model goes to the default judge model: with
	// both keys set, Anthropic's, through the anthropic provider plugin.
	an.Push(vendorfake.Reply{Text: `{"score": 1, "pass": true, "reason": "agrees"}`})
	fact := "          factuality:\n            reference: \"The capital of France is Paris\""
	if r, _ = judgeRun(t, env, fact); r.code != 0 || len(an.Requests()) != 1 {
		t.Fatalf("factuality on the default model:\n%s", r)
	}
	req := an.Requests()[0]
	if req.JSON()["model"] != "claude-sonnet-4-5" || !strings.Contains(string(req.Body), "The capital of France is Paris") {
		t.Fatalf("the default judge got %s", req.Body)
	}
}

// TestLLMJuryEndToEnd: a split jury across two vendors: the anthropic
// juror fails, the two openai jurors pass; 2 of 3 meets a 0.66 quorum,
// and the report carries every juror and Krippendorff's alpha.
func TestLLMJuryEndToEnd(t *testing.T) {
	oa, an := judgeFakes(t)
	env := judgeEnv(oa, an)
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
	r, run := judgeRun(t, env, jury)
	if r.code != 0 {
		t.Fatalf("2 of 3 meets 0.66:\n%s", r)
	}
	ev := run.Tests[0].Assertions[0].Eval
	if ev == nil || ev.Jury == nil || ev.Jury.Size != 3 || ev.Jury.Alpha == nil || len(ev.Jurors) != 3 || ev.Jurors[1].Passed ||
		ev.Jurors[1].Reason != "too terse" || !ev.Jurors[0].Passed || !ev.Jurors[2].Passed {
		b, _ := json.Marshal(ev)
		t.Fatalf("jury eval = %s", b)
	}
	if len(an.Requests()) != 1 || len(oa.Requests()) != 2 {
		t.Fatalf("calls: anthropic %d, openai %d", len(an.Requests()), len(oa.Requests()))
	}
}

// TestSimilarEndToEnd: embeddings on openai pass at the threshold; an
// anthropic model fails with the clear unsupported-feature error (exit
// 2), calling no vendor.
func TestSimilarEndToEnd(t *testing.T) {
	oa, an := judgeFakes(t)
	env := judgeEnv(oa, an)
	oa.Push(vendorfake.Reply{Vectors: [][]float32{{0.6, 0.8, 0}, {0.6, 0.7, 0.1}}, InputTokens: 12})
	sim := `          similar:
            value: "The capital of France is Paris"
            threshold: 0.9
            model: MODEL`
	r, run := judgeRun(t, env, strings.Replace(sim, "MODEL", "text-embedding-3-small", 1))
	if r.code != 0 || run.Tests[0].Assertions[0].Score == nil {
		t.Fatalf("similar on openai:\n%s", r)
	}
	req := oa.Requests()[0]
	if !strings.HasSuffix(req.Path, "/embeddings") || req.JSON()["model"] != "text-embedding-3-small" {
		t.Fatalf("the vendor got %s %s", req.Path, req.Body)
	}

	r, run = judgeRun(t, env, strings.Replace(sim, "MODEL", "claude-sonnet-4-5", 1))
	if r.code != 2 {
		t.Fatalf("similar on anthropic should error:\n%s", r)
	}
	if a := run.Tests[0].Assertions[0]; a.Status != rpt.StatusErrored || !strings.Contains(a.Error, "no embeddings API") {
		t.Fatalf("anthropic: %+v", a)
	}
	if len(an.Requests()) != 0 {
		t.Fatal("the anthropic fake was called for embeddings")
	}
}

// TestJudgeMatchersDeferWithoutKey: without any key the judge's default
// model cannot be had and a named model has no key: the assertions are
// deferred (exit 0, the variable named) and --require-models errors them.
func TestJudgeMatchersDeferWithoutKey(t *testing.T) {
	env := []string{"OPENAI_API_KEY=", "ANTHROPIC_API_KEY=", "GEMINI_API_KEY=", "GOOGLE_API_KEY=", "MISTRAL_API_KEY=",
		"MCPTEST_JUDGE_MODEL=", "MCPTEST_REQUIRE_MODELS="}
	fact := `          factuality:
            reference: "Paris is the capital of France"`
	for _, m := range []string{llmJudge, fact} {
		r, run := judgeRun(t, env, m)
		if r.code != 0 || run.Tests[0].Status != rpt.StatusDeferred || run.Summary.Deferred != 1 || !strings.Contains(r.stdout+r.stderr, "OPENAI_API_KEY") {
			t.Fatalf("no key:\n%s", r)
		}
		if r, _ = judgeRun(t, env, m, "--require-models"); r.code != 2 || !strings.Contains(r.stdout+r.stderr, "OPENAI_API_KEY") {
			t.Fatalf("--require-models:\n%s", r)
		}
	}
}

// TestJudgeMatchersRefusedInCompositions: a model-graded matcher under
// not: or inside a composition is a load error located at its key.
func TestJudgeMatchersRefusedInCompositions(t *testing.T) {
	for m, at := range map[string]string{
		"          not:\n            llm-judge: {rubric: r}":                                     "suite.yml:14:13: /tools/0/expect/0/matcher/not/llm-judge: not cannot wrap llm-judge",
		"          allOf:\n            - contains: Paris\n            - similar: {value: Paris}": "suite.yml:15:15: /tools/0/expect/0/matcher/allOf/1/similar: allOf cannot wrap similar",
	} {
		suite := writeSuite(t, strings.Replace(judgeSuite, "MATCHER", m, 1))
		r := mcptest(t, "validate", suite)
		if r.code != 2 || !strings.Contains(r.stdout+r.stderr, at) {
			t.Fatalf("%s: want %q:\n%s", m, at, r)
		}
	}
}
