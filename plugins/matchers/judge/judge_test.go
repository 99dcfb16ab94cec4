package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

func judgeArgs(threshold any) map[string]any {
	a := map[string]any{"rubric": "Must mention Paris.", "model": "judge-a"}
	if threshold != nil {
		a["threshold"] = threshold
	}
	return a
}

// The llm-judge rule: pass on the judge's pass, or a score at the
// threshold (0.7 by default); a failure carries the score and the reason.
func TestLLMJudgeVerdicts(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)

	h.push("judge-a", reply(0.7, false, "mentions Paris"))
	if r := match(t, c, keyJudge, "Paris is the capital", judgeArgs(nil)); !r.Pass || r.Score == nil || *r.Score != 0.7 {
		t.Fatalf("score at the default threshold: %+v", r)
	}
	h.push("judge-a", reply(0.2, true, "judge says pass"))
	if r := match(t, c, keyJudge, "x", judgeArgs(nil)); !r.Pass {
		t.Fatalf("pass: true short-circuits the score: %+v", r)
	}
	h.push("judge-a", reply(0.75, false, "close, but no capital named"))
	r := match(t, c, keyJudge, "Lyon", judgeArgs(0.8))
	if r.Pass || r.Error != "" || r.Deferred != "" {
		t.Fatalf("below the threshold: %+v", r)
	}
	f := failureOf(t, r)
	note, _ := f["note"].(string)
	if !strings.Contains(note, "0.75") || !strings.Contains(note, "0.8") || !strings.Contains(note, "close, but no capital named") || f["score"] != 0.75 {
		t.Fatalf("failure = %s", r.Failure)
	}
	var ev report.Eval
	if err := json.Unmarshal(r.Eval, &ev); err != nil || ev.Form != "text" || ev.Candidate != "value" || ev.Response != "Lyon" ||
		ev.Threshold != 0.8 || ev.Passed || ev.Reason != "close, but no capital named" || ev.Calls != 1 {
		t.Fatalf("eval = %s (%v)", r.Eval, err)
	}
	// The judge saw the rubric, the value's text and the reply shape, at
	// temperature 0.
	req := h.chats[len(h.chats)-1]
	if req.Model != "judge-a" || req.Temperature == nil || *req.Temperature != 0 || !strings.Contains(req.Messages[0].Content, "Must mention Paris.") ||
		!strings.Contains(req.Messages[0].Content, "<<<\nLyon\n>>>") || !strings.Contains(req.Messages[0].Content, `"score"`) {
		t.Fatalf("request = %+v", req)
	}
}

// A reply that is not the requested JSON gets exactly one repair turn
// saying what was wrong; a second bad reply errors the item with the
// start of the reply, never passing or failing it.
func TestLLMJudgeRepairsOnce(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)
	h.push("judge-a", answer{text: "Sure! The score is 0.9."}, reply(0.9, true, "ok after repair"))
	if r := match(t, c, keyJudge, "Paris", judgeArgs(nil)); !r.Pass {
		t.Fatalf("repaired reply: %+v", r)
	}
	if n := len(h.chats); n != 2 {
		t.Fatalf("%d calls, want 2", n)
	}
	rep := h.chats[1].Messages
	if len(rep) != 3 || rep[1].Role != "assistant" || rep[1].Content != "Sure! The score is 0.9." || !strings.Contains(rep[2].Content, "could not be read") {
		t.Fatalf("repair turn = %+v", rep)
	}

	h.push("judge-a", answer{text: "I think it is fine"}, answer{text: "still prose, secret sk-123"})
	r := match(t, c, keyJudge, "Paris", judgeArgs(nil))
	if r.Pass || r.Error == "" || !strings.Contains(r.Error, "unreadable after one repair") || !strings.Contains(r.Error, "still prose") {
		t.Fatalf("twice malformed: %+v", r)
	}
	if len(h.chats) != 4 || h.pending() != 0 {
		t.Fatalf("%d calls, %d pending: want one repair only", len(h.chats), h.pending())
	}
}

// A model without a key defers the item with the variable named.
func TestLLMJudgeWithoutKeyIsDeferred(t *testing.T) {
	h := newFakeHost()
	h.noKey["judge-a"] = "JUDGE_A_KEY"
	c := conn(t, h)
	r := match(t, c, keyJudge, "Paris", judgeArgs(nil))
	if r.Pass || r.Error != "" || !strings.Contains(r.Deferred, "JUDGE_A_KEY") {
		t.Fatalf("no key: %+v", r)
	}
}

// The named matchers are llm-judge with a fixed rubric that embeds their
// one field.
func TestNamedMatchersEmbedTheirField(t *testing.T) {
	h := newFakeHost()
	c := conn(t, h)
	for key, arg := range map[string]map[string]any{
		keyFactuality:   {"reference": "Paris is the capital of France", "model": "judge-a"},
		keyRelevance:    {"query": "What is the capital of France?", "model": "judge-a", "threshold": 0.9},
		keyFaithfulness: {"context": "France is in Europe. Its capital is Paris.", "model": "judge-a"},
	} {
		h.push("judge-a", reply(0.8, false, "r"))
		r := match(t, c, key, "Paris", arg)
		prompt := h.chats[len(h.chats)-1].Messages[0].Content
		var field string
		for _, k := range []string{"reference", "query", "context"} {
			if v, ok := arg[k].(string); ok {
				field = v
			}
		}
		if !strings.Contains(prompt, "<<<\n"+field+"\n>>>") {
			t.Errorf("%s: the prompt does not embed the field:\n%s", key, prompt)
		}
		if want := key != keyRelevance; r.Pass != want {
			t.Errorf("%s: pass %v, want %v (score 0.8)", key, r.Pass, want)
		}
	}
}

// Arguments are checked before the run.
func TestCheckArgument(t *testing.T) {
	c := conn(t, newFakeHost())
	for _, tc := range []struct {
		key  string
		arg  string
		want string
	}{
		{keyJudge, `{"rubric": ""}`, "must not be empty"},
		{keyJudge, `{"rubric": "r", "threshold": 1.5}`, "from 0 to 1"},
		{keyJudge, `{"rubric": "r", "treshold": 0.5}`, "unknown field"},
		{keyJury, `{"rubric": "r", "jurors": []}`, "at least one juror"},
		{keyJury, `{"rubric": "r", "jurors": [{"model": "m", "threshold": -1}]}`, "jurors[0].threshold"},
		{keySimilar, `{"threshold": 0.5}`, `"value" is required`},
		{keyFactuality, `{"query": "q"}`, "reference"},
		{keyRelevance, `null`, "must be an object"},
	} {
		res, err := c.Matcher.Check(t.Context(), []plugintestCheckItem{{ID: 1, Key: tc.key, Argument: json.RawMessage(tc.arg)}})
		if err != nil || len(res) != 1 || !strings.Contains(res[0].Error, tc.want) {
			t.Errorf("%s %s: %+v %v, want %q", tc.key, tc.arg, res, err, tc.want)
		}
	}
	res, _ := c.Matcher.Check(t.Context(), []plugintestCheckItem{{ID: 1, Key: keyJudge, Argument: json.RawMessage(`{"rubric": "r", "threshold": 0.5, "model": "m"}`)}})
	if res[0].Error != "" {
		t.Errorf("a good argument: %s", res[0].Error)
	}
}

// The deferral note keeps the host's own message, not the layers of
// wrapping around it.
func TestDeferReason(t *testing.T) {
	err := fmt.Errorf("judge m: host complete: %w: %s", sdk.ErrNoModelKey, `model "m" (openai) has no key: set OPENAI_API_KEY`)
	if got := deferReason(keyJudge, err); got != `llm-judge: model "m" (openai) has no key: set OPENAI_API_KEY` {
		t.Fatalf("got %q", got)
	}
}
