package assert

// The judge benchmark measures what judging adds on top of plugin dispatch:
// target extraction, request building, reading verdicts back, combining
// compositions and scoring. Each op judges one test of 1,000 assertions
// through an in-process plugin (real gRPC, one batch); "dispatch" sends
// the same 1,000 requests straight to Host.Match, so plain minus dispatch
// is the core's own per-assertion cost, which "core-" variants time alone
// with the verdicts canned. The composed variants wrap each assertion in
// anyOf of two leaves (2,000 items in the batch).

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

const benchAssertions = 1000

func BenchmarkJudge(b *testing.B) {
	eq := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		if string(in.Actual) == string(in.Argument) {
			return sdk.Pass(), nil
		}
		return sdk.Fail(sdk.Failure{Expected: in.Argument, Actual: in.Actual}), nil
	})
	p := &sdk.Plugin{Name: "bench", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": eq}}
	l := inproc.New(p)
	h := plugin.NewHost(l, plugin.HostOptions{})
	b.Cleanup(func() { h.Close(); l.Close() })
	found := inproc.Found(p)
	envelope := json.RawMessage(`{"result":{"content":[{"type":"text","text":"hello"}]}}`)
	path, err := target.Parse("result.content[0].text")
	if err != nil {
		b.Fatal(err)
	}
	leaf := func(arg string) *config.Matcher { return &config.Matcher{Key: "eq", Arg: json.RawMessage(arg)} }
	b.Run("dispatch", func(b *testing.B) {
		reqs := make([]plugin.MatchRequest, benchAssertions)
		for i := range reqs {
			reqs[i] = plugin.MatchRequest{Plugin: found, Key: "eq", Actual: json.RawMessage(`"hello"`), Argument: json.RawMessage(`"hello"`),
				Options: sdk.MatchOptions{TestID: "bench", TestName: "bench", Target: "result.content[0].text", SuiteFile: "bench.yml"}}
		}
		ctx := context.Background()
		for b.Loop() {
			for _, o := range h.Match(ctx, reqs) {
				if !o.Pass {
					b.Fatal(o.Err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchAssertions), "ns/assert")
	})
	for _, composed := range []bool{false, true} {
		t := &plan.Test{ID: "bench", Name: "bench", Suite: &config.Suite{File: "bench.yml"}, Options: &config.TestOptions{}}
		for range benchAssertions {
			spec := &config.Assertion{Target: "result.content[0].text", Weight: 1, Matcher: *leaf(`"hello"`)}
			a := &plan.Assertion{Spec: spec, Target: path, Plugin: found}
			if composed {
				spec.Matcher = config.Matcher{Key: "anyOf", Children: []*config.Matcher{leaf(`"bye"`), leaf(`"hello"`)}}
				a.Plugin = nil
				a.Matcher = &plan.Matcher{Spec: &spec.Matcher, Children: []*plan.Matcher{
					{Spec: spec.Matcher.Children[0], Plugin: found}, {Spec: spec.Matcher.Children[1], Plugin: found}}}
			}
			t.Assertions = append(t.Assertions, a)
		}
		name := "plain"
		if composed {
			name = "anyOf-of-2"
		}
		// core: the same judging with the plugin's verdicts canned, so
		// only the core's own work is timed (no gRPC, no coalescer).
		b.Run("core-"+name, func(b *testing.B) {
			jd := &Judge{}
			var outs []plugin.MatchOutcome
			for b.Loop() {
				j := jd.newJudging(context.Background(), t, envelope)
				res := rpt.Test{Assertions: make([]rpt.Assertion, len(t.Assertions))}
				for i, a := range t.Assertions {
					res.Assertions[i] = j.prepare(i, a, false)
				}
				if outs == nil {
					outs = make([]plugin.MatchOutcome, len(j.reqs))
					for i, q := range j.reqs {
						outs[i].Pass = string(q.Actual) == string(q.Argument)
					}
				}
				j.outs = outs
				for i, a := range t.Assertions {
					j.finish(&res.Assertions[i], a)
				}
				Verdict(t, &res, nil)
				if res.Status != rpt.StatusPassed {
					b.Fatal(fmt.Sprint(res.Assertions[0]))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchAssertions), "ns/assert")
		})
		b.Run(name, func(b *testing.B) {
			c := plugin.NewCoalescer(h)
			defer c.Close()
			jd := &Judge{Match: c.Match, OnPluginError: func(error) {}}
			ctx := context.Background()
			for b.Loop() {
				res := rpt.Test{Assertions: jd.Test(ctx, t, envelope)}
				Verdict(t, &res, nil)
				if res.Status != rpt.StatusPassed {
					b.Fatal(fmt.Sprint(res.Assertions[0]))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchAssertions), "ns/assert")
		})
	}
}
