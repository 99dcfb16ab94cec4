package assert

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// A plugin's deferral makes the assertion and its test deferred, with the
// variable in both notes; under RequireModels it is an error. A grade the
// plugin sent beside a verdict reaches the assertion with secrets masked.
func TestDeferredOutcomesAndEval(t *testing.T) {
	found := inproc.Found(&sdk.Plugin{Name: "judge", Version: "1.0.0"})
	pt := &plan.Test{ID: "t", Name: "t", Suite: &config.Suite{File: "t.yml"}}
	for range 2 {
		path, _ := target.Parse("result")
		spec := &config.Assertion{Target: "result", Weight: 1, Matcher: config.Matcher{Key: "llm-judge", Arg: json.RawMessage(`{}`)}}
		pt.Assertions = append(pt.Assertions, &plan.Assertion{Spec: spec, Target: path, Plugin: found})
	}
	const secret = "sk-secret-0123456789"
	ev, _ := json.Marshal(rpt.Eval{Form: "text", Candidate: "value", Score: 1, Passed: true, Reason: "echoes " + secret, Response: strings.Repeat("é", maxEvalText)})
	match := func(context.Context, []plugin.MatchRequest) []plugin.MatchOutcome {
		return []plugin.MatchOutcome{{Deferred: `model "m" has no key: set M_KEY`}, {Pass: true, Eval: ev}}
	}
	for _, require := range []bool{false, true} {
		jd := &Judge{Match: match, Redact: redact.New(secret), RequireModels: require}
		res := rpt.Test{Assertions: jd.Test(context.Background(), pt, json.RawMessage(`{"result":"x"}`))}
		Verdict(pt, &res, nil)
		a, b := res.Assertions[0], res.Assertions[1]
		if b.Status != rpt.StatusPassed || b.Eval == nil || strings.Contains(b.Eval.Reason, secret) || !strings.Contains(b.Eval.Reason, "[REDACTED]") ||
			len(b.Eval.Response) > maxEvalText+len("…[truncated]") || !strings.HasSuffix(b.Eval.Response, "…[truncated]") {
			t.Fatalf("require=%v: the graded assertion: %+v", require, b)
		}
		if !require {
			if a.Status != rpt.StatusDeferred || a.Error != `model "m" has no key: set M_KEY` || a.Eval != nil ||
				res.Status != rpt.StatusDeferred || res.Error == nil || res.Error.Kind != "deferred" || !strings.Contains(res.Error.Message, "M_KEY") {
				t.Fatalf("deferred: %+v / %+v", a, res)
			}
			continue
		}
		if a.Status != rpt.StatusErrored || !strings.Contains(a.Error, "M_KEY") || !strings.Contains(a.Error, "--require-models") || res.Status != rpt.StatusErrored {
			t.Fatalf("require-models: %+v / %s", a, res.Status)
		}
	}
}

// A composition one of whose leaves a plugin deferred (a private matcher
// the loader cannot know calls a model) is deferred: nothing is combined,
// so no branch is silently dropped.
func TestDeferredLeafDefersItsComposition(t *testing.T) {
	found := inproc.Found(&sdk.Plugin{Name: "private", Version: "1.0.0"})
	leaf := func(key string) *plan.Matcher {
		return &plan.Matcher{Spec: &config.Matcher{Key: key, Arg: json.RawMessage(`1`)}, Plugin: found}
	}
	anyOf := &config.Matcher{Key: "anyOf"}
	path, _ := target.Parse("result")
	pt := &plan.Test{ID: "t", Name: "t", Suite: &config.Suite{File: "t.yml"}, Assertions: []*plan.Assertion{{
		Spec: &config.Assertion{Target: "result", Weight: 1, Matcher: *anyOf}, Target: path,
		Matcher: &plan.Matcher{Spec: anyOf, Children: []*plan.Matcher{leaf("a"), leaf("asks-a-model")}},
	}}}
	jd := &Judge{Match: func(_ context.Context, reqs []plugin.MatchRequest) []plugin.MatchOutcome {
		if len(reqs) != 2 {
			t.Fatalf("%d leaves sent", len(reqs))
		}
		return []plugin.MatchOutcome{{Pass: true}, {Deferred: "set P_KEY", Plugin: "private@1.0.0"}}
	}}
	res := rpt.Test{Assertions: jd.Test(context.Background(), pt, json.RawMessage(`{"result":1}`))}
	Verdict(pt, &res, nil)
	if a := res.Assertions[0]; a.Status != rpt.StatusDeferred || a.Error != "set P_KEY" || res.Status != rpt.StatusDeferred {
		t.Fatalf("composition: %+v, test %s", a, res.Status)
	}
}
