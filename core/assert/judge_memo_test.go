package assert

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/sdk"
)

// TestJudgingMemoisesTargets checks that assertions sharing a target get
// the same value, and that the memo never answers for another target.
func TestJudgingMemoisesTargets(t *testing.T) {
	found := inproc.Found(&sdk.Plugin{Name: "memo", Version: "1.0.0"})
	envelope := json.RawMessage(`{"result":{"a":"x","b":{"k":[1,2]},"c":null}}`)
	targets := []string{"result.a", "result.b", "result.a", "result.c", "result.b.k", "result.b", "result.missing", "result.a"}
	// More targets than the memo holds: the later ones are extracted
	// each time.
	for i := range maxMemoTargets {
		targets = append(targets, "result.b.k["+string(rune('0'+i%2))+"]")
	}
	want := []string{`"x"`, `{"k":[1,2]}`, `"x"`, `null`, `[1,2]`, `{"k":[1,2]}`, "", `"x"`}
	for i := range maxMemoTargets {
		want = append(want, []string{"1", "2"}[i%2])
	}
	pt := &plan.Test{ID: "t", Name: "t", Suite: &config.Suite{File: "t.yml"}}
	for _, tg := range targets {
		path, err := target.Parse(tg)
		if err != nil {
			t.Fatal(err)
		}
		spec := &config.Assertion{Target: tg, Weight: 1, Matcher: config.Matcher{Key: "eq", Arg: json.RawMessage(`1`)}}
		pt.Assertions = append(pt.Assertions, &plan.Assertion{Spec: spec, Target: path, Plugin: found})
	}
	jd := &Judge{}
	j := jd.newJudging(context.Background(), pt, envelope)
	var got []string
	for i, a := range pt.Assertions {
		res := j.prepare(i, a, false)
		if res.Status != "" {
			got = append(got, "") // decided without a request: the missing target
			continue
		}
		got = append(got, string(j.reqs[len(j.reqs)-1].Actual))
	}
	if len(got) != len(want) {
		t.Fatalf("got %d values, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("assertion %d (%s): actual %s, want %s", i, targets[i], got[i], want[i])
		}
	}
}
