package judge

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
)

func TestResolveRefWithOverrides(t *testing.T) {
	suite := &config.Suite{Rubrics: map[string]*config.Rubric{
		"shared": {Threshold: f(0.7), Criteria: []*config.Criterion{crit("helpful"), crit("grounded", func(c *config.Criterion) { c.Threshold = f(0.5) })}},
	}}
	r, err := Resolve(suite, &config.Rubric{Ref: "shared", Threshold: f(0.9), Strict: ptrBool(true)}, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ref != "shared" || r.Threshold != 0.9 || !r.Strict || r.Form != FormCriteria {
		t.Fatalf("resolved = %+v", r)
	}
	// The override reaches criteria without their own threshold only.
	if r.Criteria[0].Threshold != 0.9 || r.Criteria[1].Threshold != 0.5 {
		t.Fatalf("criteria thresholds %v, %v", r.Criteria[0].Threshold, r.Criteria[1].Threshold)
	}
	// The named rubric itself is untouched.
	if *suite.Rubrics["shared"].Threshold != 0.7 {
		t.Fatal("override leaked into the shared rubric")
	}
	if _, err := Resolve(suite, &config.Rubric{Ref: "nope"}, 0.7); !errors.Is(err, ErrRubric) {
		t.Fatalf("unknown ref: %v", err)
	}
}

func TestResolvePresetAppends(t *testing.T) {
	r, err := Resolve(nil, &config.Rubric{Preset: "groundedness", Threshold: f(0.8), Criteria: []*config.Criterion{crit("brief")}}, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	if r.Preset != "groundedness" || r.Threshold != 0.8 || len(r.Criteria) != 3 || r.Criteria[2].Name != "brief" {
		t.Fatalf("resolved = %+v", r)
	}
	for _, name := range config.RubricPresets {
		if _, err := Resolve(nil, &config.Rubric{Preset: name}, 0.7); err != nil {
			t.Errorf("preset %s: %v", name, err)
		}
	}
	if _, err := Resolve(nil, &config.Rubric{Preset: "kindness"}, 0.7); !errors.Is(err, ErrRubric) || !strings.Contains(err.Error(), "helpfulness") {
		t.Fatalf("unknown preset: %v", err)
	}
}

func TestResolveTextUsesEvalThreshold(t *testing.T) {
	r, _ := Resolve(nil, &config.Rubric{Text: "x"}, 0.6)
	if r.Form != FormText || r.Threshold != 0.6 {
		t.Fatalf("resolved = %+v", r)
	}
}

func TestResolveBadRegex(t *testing.T) {
	_, err := Resolve(nil, &config.Rubric{Criteria: []*config.Criterion{crit("a", func(c *config.Criterion) {
		c.When = &config.When{Regex: "("}
		c.Pos = config.Pos{File: "s.yml", Line: 4, Col: 7}
	})}}, 0.7)
	if !errors.Is(err, ErrRubric) || !strings.Contains(err.Error(), "s.yml:4:7") {
		t.Fatalf("err = %v", err)
	}
}

func TestSpecOfJudgeDefaults(t *testing.T) {
	resp := "r"
	s, err := SpecOf(nil, &config.EvalTest{Name: "e", Response: &resp, Rubric: &config.Rubric{Text: "x"}, Threshold: 0.7,
		Judge: &config.Judge{Model: "claude-haiku-4-5", Jury: &config.Jury{}}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Model != "claude-haiku-4-5" || s.JurySize != DefaultJurySize || s.Consensus != DefaultConsensus {
		t.Fatalf("spec = %+v", s)
	}
	s = WithJudge(Spec{}, &config.Judge{Panel: []string{"a", "b"}})
	if s.Aggregate != "mean" || s.TieBreak != "fail" {
		t.Fatalf("panel defaults = %+v", s)
	}
}

func TestDefaultModel(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MCPTEST_JUDGE_MODEL": "gpt-5-mini", "ANTHROPIC_API_KEY": "k"}, "gpt-5-mini"},
		{map[string]string{"OPENAI_API_KEY": "k", "MISTRAL_API_KEY": "k"}, "gpt-4.1-mini"},
		{map[string]string{"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"}, "claude-sonnet-4-5"},
		{map[string]string{"GOOGLE_API_KEY": "k"}, "gemini-2.5-flash"},
		{map[string]string{"MISTRAL_API_KEY": "k"}, "mistral-large-latest"},
	} {
		got, err := DefaultModel(env(c.env))
		if err != nil || got != c.want {
			t.Errorf("env %v: %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	_, err := DefaultModel(env(nil))
	if !errors.Is(err, ErrDeferred) || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") || !strings.Contains(err.Error(), JudgeModelEnv) {
		t.Fatalf("no key: %v", err)
	}
}

func TestParseModelRef(t *testing.T) {
	if r := ParseModelRef("local:llama3"); r.Provider != "local" || r.ID != "llama3" {
		t.Fatalf("ref = %+v", r)
	}
	if r := ParseModelRef("claude-sonnet-4-5"); r.Provider != "" || r.ID != "claude-sonnet-4-5" {
		t.Fatalf("ref = %+v", r)
	}
}
