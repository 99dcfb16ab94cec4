package judge

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

func f(v float64) *float64 { return &v }

func crit(name string, mods ...func(*config.Criterion)) *config.Criterion {
	c := &config.Criterion{Name: name, Description: "checks " + name, Weight: 1}
	for _, m := range mods {
		m(c)
	}
	return c
}

func resolve(t *testing.T, r *config.Rubric) *Resolved {
	t.Helper()
	res, err := Resolve(&config.Suite{}, r, config.DefaultRubricThreshold)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var fixed = Candidate{Prompt: "What changed?", Response: "The 2.3.0 release added per-tenant rate limits."}

func TestTextForm(t *testing.T) {
	m := &scripted{answer: func(int, sdk.ChatRequest) string { return verdict(0.8, "on topic") }}
	r, _ := Resolve(nil, &config.Rubric{Text: "mentions the release"}, 0.7)
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Form != "text" || ev.Score != 0.8 || !ev.Passed || ev.Reason != "on topic" || ev.Calls != 1 || ev.JudgeModel != "judge-model" {
		t.Fatalf("eval = %+v", ev)
	}
	if ev.CostUSD != nil {
		t.Fatalf("an unpriced model has a cost: %v", *ev.CostUSD)
	}
}

func TestWeightedCriteria(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"a": 1, "b": 0.4})}
	r := resolve(t, &config.Rubric{Threshold: f(0.8), Criteria: []*config.Criterion{
		crit("a", func(c *config.Criterion) { c.Weight = 2 }), crit("b")}})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil {
		t.Fatal(err)
	}
	// (2*1 + 1*0.4) / 3 = 0.8
	if math.Abs(ev.Score-0.8) > 1e-9 || !ev.Passed || len(ev.Criteria) != 2 || ev.Calls != 2 {
		t.Fatalf("eval = %+v", ev)
	}
	if ev.Criteria[1].Reason != "graded b" || ev.Criteria[1].Passed {
		t.Fatalf("criterion b = %+v", ev.Criteria[1])
	}
}

func TestStrictNeedsPerfect(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"a": 0.99})}
	r := resolve(t, &config.Rubric{Strict: ptrBool(true), Criteria: []*config.Criterion{crit("a")}})
	ev, _ := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if ev.Passed || !strings.Contains(ev.Reason, "strict") {
		t.Fatalf("strict rubric passed at 0.99: %+v", ev)
	}
}

func ptrBool(b bool) *bool { return &b }

func TestAggregations(t *testing.T) {
	scores := map[string]float64{"a": 0.2, "b": 0.6, "c": 0.9, "d": 1}
	want := map[string]float64{"mean": 0.675, "min": 0.2, "max": 1, "median": 0.75}
	for how, w := range want {
		m := &scripted{answer: byCriterion(scores)}
		r := resolve(t, &config.Rubric{Aggregation: how, Criteria: []*config.Criterion{crit("a"), crit("b"), crit("c"), crit("d")}})
		ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
		if err != nil || math.Abs(ev.Score-w) > 1e-9 || ev.Aggregation != how {
			t.Errorf("%s: score %v (%v), want %v", how, ev.Score, err, w)
		}
	}
}

func TestRequiredGate(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"total": 0.3, "x": 1, "y": 1, "z": 1})}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{
		crit("total", func(c *config.Criterion) { c.Required = true }), crit("x"), crit("y"), crit("z")}})
	ev, _ := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	// mean 0.825 clears 0.7, but the required criterion fails.
	if ev.Passed || !strings.Contains(ev.Reason, `required criterion "total" does not hold`) {
		t.Fatalf("eval = %+v", ev)
	}
}

func TestGuardGate(t *testing.T) {
	for _, tc := range []struct {
		leak float64
		pass bool
	}{{0.9, false}, {0.05, true}} {
		m := &scripted{answer: byCriterion(map[string]float64{"correct": 1, "leaks": tc.leak})}
		r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{
			crit("correct"), crit("leaks", func(c *config.Criterion) { c.Guard = true })}})
		ev, _ := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
		if ev.Passed != tc.pass {
			t.Fatalf("guard score %v: passed = %v, want %v (%s)", tc.leak, ev.Passed, tc.pass, ev.Reason)
		}
		// A guard that does not hold adds 1 - score to the mean.
		if want := (1 + 1 - tc.leak) / 2; math.Abs(ev.Score-want) > 1e-9 {
			t.Fatalf("score = %v, want %v", ev.Score, want)
		}
	}
}

func TestPerCriterionThresholdGates(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"a": 0.85, "b": 1})}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{
		crit("a", func(c *config.Criterion) { c.Threshold = f(0.9) }), crit("b")}})
	ev, _ := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if ev.Passed || ev.Criteria[0].Threshold != 0.9 || ev.Criteria[1].Threshold != 0.7 {
		t.Fatalf("eval = %+v", ev)
	}
}

func TestWhenSkips(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"apologizes": 1, "names version": 0.9})}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{
		crit("apologizes", func(c *config.Criterion) { c.When = &config.When{Contains: "error"} }),
		crit("names version", func(c *config.Criterion) { c.When = &config.When{Regex: `\d+\.\d+\.\d+`} })}})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Criteria[0].Skipped || ev.Criteria[0].Score != nil || ev.Criteria[1].Skipped {
		t.Fatalf("criteria = %+v", ev.Criteria)
	}
	if m.calls() != 1 || ev.Score != 0.9 || !ev.Passed {
		t.Fatalf("calls %d, eval %+v", m.calls(), ev)
	}
}

func TestAllSkippedFails(t *testing.T) {
	m := &scripted{answer: byCriterion(nil)}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{
		crit("a", func(c *config.Criterion) { c.When = &config.When{Contains: "nowhere"} })}})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Passed || ev.Reason != AllSkippedReason || m.calls() != 0 {
		t.Fatalf("all-skipped rubric: %+v (calls %d)", ev, m.calls())
	}
}

func TestEvidence(t *testing.T) {
	cases := map[string]struct {
		reply string
		found bool
		score float64
		pass  bool
	}{
		"found":     {`{"score": 1, "reason": "r", "evidence": "per-tenant rate limits"}`, true, 1, true},
		"not found": {`{"score": 1, "reason": "r", "evidence": "rewrote billing"}`, false, 0, false},
		"missing":   {`{"score": 1, "reason": "r", "evidence": ""}`, false, 0, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m := &scripted{answer: func(int, sdk.ChatRequest) string { return c.reply }}
			r := resolve(t, &config.Rubric{RequireEvidence: true, Criteria: []*config.Criterion{crit("a"), crit("b")}})
			ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
			if err != nil {
				t.Fatal(err)
			}
			cr := ev.Criteria[0]
			if cr.EvidenceFound != c.found || *cr.Score != c.score || ev.Passed != c.pass {
				t.Fatalf("criterion %+v, eval passed %v (%s)", cr, ev.Passed, ev.Reason)
			}
			if !c.found && !strings.Contains(ev.Reason, "no verifiable evidence") {
				t.Fatalf("reason does not name the evidence gate: %s", ev.Reason)
			}
			if !strings.Contains(m.reqs[0].Messages[0].Content, `"evidence"`) {
				t.Fatal("the prompt does not ask for evidence")
			}
		})
	}
}

func TestEvidenceFieldAbsentIsRepaired(t *testing.T) {
	m := &scripted{answer: func(n int, _ sdk.ChatRequest) string {
		if n%2 == 0 {
			return `{"score": 1, "reason": "r"}`
		}
		return `{"score": 1, "reason": "r", "evidence": "2.3.0"}`
	}}
	r := resolve(t, &config.Rubric{RequireEvidence: true, Criteria: []*config.Criterion{crit("a")}})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil || !ev.Passed || ev.Calls != 2 {
		t.Fatalf("eval %+v, %v", ev, err)
	}
}

func TestTree(t *testing.T) {
	tree := &config.TreeNode{Ask: "called the tool?",
		Yes: &config.TreeNode{Ask: "states a temperature?",
			Yes: &config.TreeNode{Score: f(1), Reason: "full"},
			No:  &config.TreeNode{Score: f(0.4), Reason: "no temperature"}},
		No: &config.TreeNode{Score: f(0), Reason: "never called"}}
	m := &scripted{answer: byCriterion(map[string]float64{"called the tool?": 0.5, "states a temperature?": 0.2})}
	r := resolve(t, &config.Rubric{Tree: tree})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Form != "tree" || ev.Score != 0.4 || ev.Passed || len(ev.Path) != 3 || ev.Aggregation != "" {
		t.Fatalf("eval = %+v", ev)
	}
	if ev.Path[0].Answer != "yes" || ev.Path[1].Answer != "no" || *ev.Path[2].Score != 0.4 {
		t.Fatalf("path = %+v", ev.Path)
	}
	if want := "path: called the tool? -> yes, states a temperature? -> no; no temperature"; ev.Reason != want {
		t.Fatalf("reason = %q", ev.Reason)
	}
}

func TestCalibrationExamplesRendered(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"grounded": 1})}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{crit("grounded", func(c *config.Criterion) {
		c.Examples = []*config.Example{{Response: "2.3.0 added per-tenant rate limits.", Score: 1}, {Response: "2.3.0 rewrote the billing engine.", Score: 0}}
	})}})
	if _, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed); err != nil {
		t.Fatal(err)
	}
	user := m.reqs[0].Messages[0].Content
	for _, want := range []string{"Calibration examples\n", `Response: "2.3.0 added per-tenant rate limits." -> score 1.00`, `Response: "2.3.0 rewrote the billing engine." -> score 0.00`} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %q:\n%s", want, user)
		}
	}
}

func TestScaleDisplayOnly(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"a": 0.75})}
	r := resolve(t, &config.Rubric{Scale: &config.Scale{Kind: "likert", Min: 1, Max: 5}, Criteria: []*config.Criterion{crit("a")}})
	ev, _ := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if ev.Score != 0.75 || ev.Display != "4.0/5" || ev.Scale.Kind != "likert" {
		t.Fatalf("eval = %+v", ev)
	}
	if Display(0.8, &report.EvalScale{Kind: "percent"}) != "80%" || Display(0.8, nil) != "" {
		t.Fatal("percent display")
	}
}

func TestRepairThenSuccess(t *testing.T) {
	m := &scripted{answer: func(n int, _ sdk.ChatRequest) string {
		if n == 0 {
			return "I think it deserves 0.9 because it is good."
		}
		return verdict(0.9, "good")
	}}
	r, _ := Resolve(nil, &config.Rubric{Text: "x"}, 0.7)
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil || ev.Score != 0.9 || ev.Calls != 2 {
		t.Fatalf("eval %+v, %v", ev, err)
	}
	second := m.reqs[1].Messages
	if len(second) != 3 || second[1].Role != "assistant" || !strings.Contains(second[2].Content, "could not be read") {
		t.Fatalf("repair turn = %+v", second)
	}
}

func TestRepairThenFailureErrorsWithMaskedExcerpt(t *testing.T) {
	m := &scripted{answer: func(int, sdk.ChatRequest) string { return "no JSON here, key sk-live-123 leaked" }}
	r, _ := Resolve(nil, &config.Rubric{Text: "x"}, 0.7)
	e := engine(t, m, Options{Redactor: redactorOf("sk-live-123")})
	_, err := e.Grade(context.Background(), Spec{Rubric: r}, fixed)
	var re *ReplyError
	if !errors.As(err, &re) || !errors.Is(err, ErrReply) {
		t.Fatalf("err = %v, want a ReplyError", err)
	}
	if strings.Contains(err.Error(), "sk-live-123") || !strings.Contains(err.Error(), "no JSON here") {
		t.Fatalf("error = %s", err)
	}
	if m.calls() != 2 {
		t.Fatalf("calls = %d, want 2 (one repair)", m.calls())
	}
}

func TestDeferredWithoutKey(t *testing.T) {
	m := &scripted{answer: byCriterion(nil)}
	src := source{models: map[string]*scripted{}, noKey: map[string]bool{"claude-sonnet-4-5": true}}
	r, _ := Resolve(nil, &config.Rubric{Text: "x"}, 0.7)
	_, err := engine(t, m, Options{Models: src}).Grade(context.Background(), Spec{Rubric: r, Model: "claude-sonnet-4-5"}, fixed)
	if !errors.Is(err, ErrDeferred) || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("err = %v", err)
	}
}

func TestTemperature(t *testing.T) {
	for model, zero := range map[string]bool{"claude-sonnet-4-5": true, "gpt-4.1-mini": true, "gpt-5-mini": false, "o3": false, "local:o1-clone": false, "mistral-large-latest": true} {
		got := temperature(model)
		if (got != nil && *got == 0) != zero {
			t.Errorf("%s: temperature %v", model, got)
		}
	}
}

// stuck is a model that answers only when its context ends.
type stuck struct{}

func (stuck) Complete(ctx context.Context, _ sdk.ChatRequest) (sdk.ChatResponse, error) {
	<-ctx.Done()
	return sdk.ChatResponse{}, ctx.Err()
}

type stuckSource struct{ source }

func (stuckSource) Model(string) (Model, error) { return stuck{}, nil }

func TestJudgeCallIsBounded(t *testing.T) {
	e := New(Options{Models: stuckSource{}, DefaultModel: "m", CallTimeout: time.Millisecond})
	_, err := e.Grade(context.Background(), Spec{Rubric: textSpec(t)}, fixed)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the call's deadline", err)
	}
}

func TestRepairSaysTheReplyWasCut(t *testing.T) {
	m := &scripted{stops: []string{sdk.StopMaxTokens}, answer: func(n int, _ sdk.ChatRequest) string {
		if n == 0 {
			return `{"score": 0.9, "reason": "a very long reason that goes on and`
		}
		return verdict(0.9, "short")
	}}
	ev, err := engine(t, m, Options{}).Grade(context.Background(), Spec{Rubric: textSpec(t)}, fixed)
	if err != nil || ev.Score != 0.9 {
		t.Fatalf("eval %+v, %v", ev, err)
	}
	if repair := m.reqs[1].Messages[2].Content; !strings.Contains(repair, "cut at the token limit") {
		t.Fatalf("repair = %q", repair)
	}
}
