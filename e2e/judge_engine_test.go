package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/internal/vendorfake"
)

// judgeRubric is a two-criterion rubric with a required criterion.
func judgeRubric(t *testing.T) *judge.Resolved {
	t.Helper()
	r, err := judge.Resolve(nil, &config.Rubric{Criteria: []*config.Criterion{
		{Name: "states the version", Description: "Names the release version.", Weight: 1, Required: true},
		{Name: "states the change", Description: "Describes what the release changed.", Weight: 1},
	}}, config.DefaultRubricThreshold)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var judgeCandidate = judge.Candidate{Prompt: "What changed in the last release?", Response: "The 2.3.0 release added per-tenant rate limits."}

// TestJudgeEngineThroughAnthropicPlugin grades a rubric with the real
// anthropic provider plugin against its vendor fake: a malformed first
// reply is repaired once (the repair instruction reaches the vendor), the
// verdicts are priced from the plugin's table, and a second engine over
// the same cache folder answers without a call.
func TestJudgeEngineThroughAnthropicPlugin(t *testing.T) {
	fake := vendorfake.New(t, vendorfake.Anthropic)
	const key = "sk-ant-judge-0123456789"
	fake.Key = key
	router := bundledRouter(t, map[string]string{"ANTHROPIC_API_KEY": key, "ANTHROPIC_BASE_URL": fake.URL}, nil)
	fake.Push(
		vendorfake.Reply{Text: "The answer names version 2.3.0, so I would say 1.", InputTokens: 400, OutputTokens: 20},
		vendorfake.Reply{Text: `{"score": 1, "pass": true, "reason": "names 2.3.0"}`, InputTokens: 450, OutputTokens: 20},
		vendorfake.Reply{Text: "```json\n{\"score\": 0.8, \"pass\": true, \"reason\": \"says rate limits were added\"}\n```", InputTokens: 400, OutputTokens: 20},
	)
	dir := t.TempDir()
	opts := judge.Options{Models: judge.RouterSource{Router: router}, DefaultModel: "claude-sonnet-4-5",
		Cache: verdictcache.New(dir), Redactor: router.Redactor()}
	ev, err := judge.New(opts).Grade(context.Background(), judge.Spec{Rubric: judgeRubric(t)}, judgeCandidate)
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Passed || ev.Score != 0.9 || ev.Calls != 3 || ev.JudgeModel != "claude-sonnet-4-5" {
		t.Fatalf("eval = %+v", ev)
	}
	if ev.CostUSD == nil || *ev.CostUSD <= 0 {
		t.Fatalf("cost = %v, want the price table's", ev.CostUSD)
	}
	reqs := fake.Requests()
	if len(reqs) != 3 || !strings.Contains(string(reqs[1].Body), "could not be read") ||
		!strings.Contains(string(reqs[0].Body), "per-tenant rate limits") {
		t.Fatalf("vendor requests: %d, second %s", len(reqs), reqs[1].Body)
	}

	again, err := judge.New(opts).Grade(context.Background(), judge.Spec{Rubric: judgeRubric(t)}, judgeCandidate)
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.Requests()) != 3 || !again.Cached || again.Score != ev.Score || *again.CostUSD != 0 {
		t.Fatalf("cached grade: %d vendor requests, %+v", len(fake.Requests()), again)
	}
}

// TestJudgeEngineThroughOpenAIPlugin: through the real openai provider
// plugin, a single judge whose reply stays malformed after the repair
// errors the eval with the (masked) excerpt; in a jury the same juror
// abstains and the others decide; a missing key defers before any call.
func TestJudgeEngineThroughOpenAIPlugin(t *testing.T) {
	fake := vendorfake.New(t, vendorfake.OpenAI)
	const key = "sk-openai-judge-0123456789"
	fake.Key = key
	router := bundledRouter(t, map[string]string{"OPENAI_API_KEY": key, "OPENAI_BASE_URL": fake.URL}, nil)
	text, err := judge.Resolve(nil, &config.Rubric{Text: "Accurate summary of the release."}, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	opts := judge.Options{Models: judge.RouterSource{Router: router}, DefaultModel: "gpt-4o-mini", Redactor: router.Redactor()}

	fake.Push(vendorfake.Reply{Text: "score: high (key " + key + ")"}, vendorfake.Reply{Text: "{\"score\": 0.9, \"reason\": "})
	_, err = judge.New(opts).Grade(context.Background(), judge.Spec{Rubric: text}, judgeCandidate)
	var re *judge.ReplyError
	if !errors.As(err, &re) || !errors.Is(err, judge.ErrReply) || !strings.Contains(err.Error(), `reply began "{\"score\": 0.9`) {
		t.Fatalf("err = %v, want a reply error with the excerpt", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Fatalf("the error leaks the key: %v", err)
	}

	fake.Push(
		vendorfake.Reply{Text: `{"score": 0.9, "pass": true, "reason": "accurate"}`},
		vendorfake.Reply{Text: "I refuse to answer in JSON."},
		vendorfake.Reply{Text: "Still prose."},
		vendorfake.Reply{Text: `{"score": 0.7, "pass": true, "reason": "mostly accurate"}`},
	)
	spec := judge.WithJudge(judge.Spec{Rubric: text}, &config.Judge{Jury: &config.Jury{Size: 3, Consensus: 1}})
	ev, err := judge.New(opts).Grade(context.Background(), spec, judgeCandidate)
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Passed || !ev.Jurors[1].Abstained || ev.Jury.Abstained != 1 || ev.Calls != 4 || ev.Score != 0.8 {
		t.Fatalf("jury = %+v %+v", ev, ev.Jury)
	}

	noKey := bundledRouter(t, map[string]string{}, nil)
	before := len(fake.Requests())
	_, err = judge.New(judge.Options{Models: judge.RouterSource{Router: noKey}, DefaultModel: "gpt-4o-mini", Redactor: redact.New()}).
		Grade(context.Background(), judge.Spec{Rubric: text}, judgeCandidate)
	if !errors.Is(err, judge.ErrDeferred) || !strings.Contains(err.Error(), "OPENAI_API_KEY") || len(fake.Requests()) != before {
		t.Fatalf("no key: %v", err)
	}
}
