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
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// TestJudgeMatchIntoAgreesWithMatch: a judge given MatchInto reaches the
// verdicts, failures and errors a judge given Match reaches, test after
// test, while it hands the same pooled memory from test to test: that
// memory arrives holding no outcome of an earlier test, and what a test's
// results keep does not change when later tests reuse it.
func TestJudgeMatchIntoAgreesWithMatch(t *testing.T) {
	found := inproc.Found(&sdk.Plugin{Name: "eq", Version: "1.0.0"})
	outcome := func(r plugin.MatchRequest) plugin.MatchOutcome {
		switch {
		case string(r.Argument) == `"error"`:
			return plugin.MatchOutcome{Err: fmt.Errorf("cannot judge %s", r.Actual), Plugin: "eq@1.0.0"}
		case string(r.Actual) == string(r.Argument):
			return plugin.MatchOutcome{Pass: true, Plugin: "eq@1.0.0"}
		}
		return plugin.MatchOutcome{Failure: json.RawMessage(fmt.Sprintf(`{"actual":%s}`, r.Actual)), Plugin: "eq@1.0.0"}
	}
	match := func(_ context.Context, reqs []plugin.MatchRequest) []plugin.MatchOutcome {
		out := make([]plugin.MatchOutcome, len(reqs))
		for i, r := range reqs {
			out[i] = outcome(r)
		}
		return out
	}
	into := func(_ context.Context, reqs []plugin.MatchRequest, out []plugin.MatchOutcome) []plugin.MatchOutcome {
		for i, o := range out[:cap(out)] {
			if !reflect.ValueOf(o).IsZero() {
				t.Fatalf("the memory handed to MatchInto holds an outcome at %d: %+v", i, o)
			}
		}
		out = out[:len(reqs)]
		for i, r := range reqs {
			out[i] = outcome(r)
		}
		return out
	}
	byMatch := &Judge{Match: match}
	byInto := &Judge{Match: func(context.Context, []plugin.MatchRequest) []plugin.MatchOutcome {
		t.Fatal("Match called on a judge with MatchInto")
		return nil
	}, MatchInto: into}

	var want, got [][]rpt.Assertion
	for n := range 30 {
		envelope := json.RawMessage(fmt.Sprintf(`{"result":{"a":"x%d","b":%d}}`, n, n))
		pt := &plan.Test{ID: "t", Name: "t", Suite: &config.Suite{File: "t.yml"}}
		for i := range 3 + n%7 {
			tg, arg := "result.a", fmt.Sprintf(`"x%d"`, n-i%2)
			if i%3 == 2 {
				tg, arg = "result.b", `"error"`
			}
			path, err := target.Parse(tg)
			if err != nil {
				t.Fatal(err)
			}
			spec := &config.Assertion{Target: tg, Weight: 1, Matcher: config.Matcher{Key: "eq", Arg: json.RawMessage(arg)}}
			pt.Assertions = append(pt.Assertions, &plan.Assertion{Spec: spec, Target: path, Plugin: found})
		}
		want = append(want, byMatch.Test(context.Background(), pt, envelope))
		got = append(got, byInto.Test(context.Background(), pt, envelope))
	}
	// Compared only now, once later tests have reused the memory.
	for n := range want {
		if !reflect.DeepEqual(got[n], want[n]) {
			t.Fatalf("test %d: MatchInto judged\n%+v\nMatch judged\n%+v", n, got[n], want[n])
		}
	}
	if want[1][1].Status != rpt.StatusFailed || want[1][0].Status != rpt.StatusPassed || want[1][2].Status != rpt.StatusErrored {
		t.Fatalf("the fixture no longer has a pass, a failure and an error: %+v", want[1])
	}
}
