package assert

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/sdk"
)

// TestJudgeRequestsCarryEveryOption checks each request a judge sends,
// field by field, against the one the test's options and the entry make:
// plain assertions and the leaves of a composition, tests with and
// without a trial, one after another, so a request written into recycled
// memory keeps nothing of an earlier test (a trial's seat above all).
func TestJudgeRequestsCarryEveryOption(t *testing.T) {
	found := inproc.Found(&sdk.Plugin{Name: "eq", Version: "1.0.0"})
	var sent [][]plugin.MatchRequest
	jd := &Judge{UpdateSnapshots: true, Match: func(_ context.Context, reqs []plugin.MatchRequest) []plugin.MatchOutcome {
		sent = append(sent, append([]plugin.MatchRequest(nil), reqs...))
		return make([]plugin.MatchOutcome, len(reqs))
	}}
	envelope := json.RawMessage(`{"result":{"a":"x","b":[1,2]}}`)
	suite := &config.Suite{File: "dir/t.yml", Dir: "dir"}
	mk := func(tg, key, arg, msg string) *plan.Assertion {
		spec := &config.Assertion{Target: tg, Message: msg, Weight: 1, Matcher: config.Matcher{Key: key, Arg: json.RawMessage(arg)}}
		return &plan.Assertion{Spec: spec, Target: target.MustParse(tg), Plugin: found}
	}
	composed := func() *plan.Assertion {
		a, b := config.Matcher{Key: "eq", Arg: json.RawMessage(`1`)}, config.Matcher{Key: "contains", Arg: json.RawMessage(`2`)}
		spec := &config.Assertion{Target: "result.b", Message: "either", Weight: 1,
			Matcher: config.Matcher{Key: "anyOf", Children: []*config.Matcher{&a, &b}}}
		return &plan.Assertion{Spec: spec, Target: target.MustParse("result.b"), Matcher: &plan.Matcher{Spec: &spec.Matcher,
			Children: []*plan.Matcher{{Spec: &a, Plugin: found}, {Spec: &b, Plugin: found}}}}
	}
	for _, trial := range []int{2, 0, 3, 0} {
		pt := &plan.Test{ID: fmt.Sprintf("t%d", trial), Name: fmt.Sprintf("test %d", trial), Suite: suite, Trial: trial}
		pt.Assertions = []*plan.Assertion{mk("result.a", "eq", `"x"`, "first"), composed(), mk("result.b", "eq", `[1,2]`, "")}
		sent = nil
		jd.Test(context.Background(), pt, envelope)
		var raw json.RawMessage
		if trial > 0 {
			raw = json.RawMessage(fmt.Sprintf(`{"trial":%d}`, trial))
		}
		opts := func(tg, msg string) sdk.MatchOptions {
			return sdk.MatchOptions{TestID: pt.ID, TestName: pt.Name, Target: tg, Message: msg,
				SuiteFile: "dir/t.yml", SuiteDir: "dir", UpdateSnapshots: true, Raw: raw}
		}
		want := []plugin.MatchRequest{
			{Plugin: found, Key: "eq", Actual: json.RawMessage(`"x"`), Argument: json.RawMessage(`"x"`), Options: opts("result.a", "first")},
			{Plugin: found, Key: "eq", Actual: json.RawMessage(`[1,2]`), Argument: json.RawMessage(`1`), Options: opts("result.b", "either")},
			{Plugin: found, Key: "contains", Actual: json.RawMessage(`[1,2]`), Argument: json.RawMessage(`2`), Options: opts("result.b", "either")},
			{Plugin: found, Key: "eq", Actual: json.RawMessage(`[1,2]`), Argument: json.RawMessage(`[1,2]`), Options: opts("result.b", "")},
		}
		if len(sent) != 1 || !reflect.DeepEqual(sent[0], want) {
			t.Fatalf("trial %d: sent\n%+v\nwant\n%+v", trial, sent, want)
		}
	}
}
