package e2e

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// The judge matchers reach models through the host's Host service; these
// tests check that such calls obey the run's --max-cost cap and verdict
// cache exactly as core/judge's own calls do, and that their cost reaches
// the assertion and the report's costs.

// TestHostCallsMaxCost: a budget smaller than one judge call refuses the
// call before it is sent: the assertion errors naming --max-cost, the
// vendor is never asked, and the report says the budget stopped a call.
func TestHostCallsMaxCost(t *testing.T) {
	oa, an := judgeFakes(t)
	env := judgeEnv(oa, an)
	r, run := judgeRun(t, env, llmJudge, "--max-cost", "0.00001")
	if r.code != 2 {
		t.Fatalf("a refused judge call should error the run:\n%s", r)
	}
	a := run.Tests[0].Assertions[0]
	if a.Status != rpt.StatusErrored || !strings.Contains(a.Error, "--max-cost budget would be exceeded") ||
		!strings.Contains(a.Error, "of the $0.00001 budget") || strings.Contains(a.Error, "rpc error") {
		t.Fatalf("assertion = %+v", a)
	}
	if n := len(oa.Requests()); n != 0 {
		t.Fatalf("the vendor got %d requests over the budget", n)
	}
	if run.Costs == nil || run.Costs.MaxUSD == nil || !run.Costs.Stopped {
		b, _ := json.Marshal(run.Costs)
		t.Fatalf("costs = %s", b)
	}

	// A jury of two whose budget fits one juror's call: one juror is
	// asked, the other refused, and the jury errors rather than passing
	// on the one juror left.
	_, after, ok := strings.Cut(a.Error, "could cost up to $")
	estimate, err := strconv.ParseFloat(strings.Fields(after + " ")[0], 64)
	if !ok || err != nil || estimate <= 0 {
		t.Fatalf("no estimate in %q", a.Error)
	}
	oa.Push(vendorfake.Reply{Text: `{"score": 0.9, "pass": true, "reason": "names Paris"}`, InputTokens: 400, OutputTokens: 20})
	jury := `          llm-jury:
            rubric: "The answer must name Paris."
            threshold: 0.8
            quorum: 0.5
            jurors:
              - model: gpt-4o-mini
              - model: gpt-4o-mini`
	r, run = judgeRun(t, env, jury, "--max-cost", strconv.FormatFloat(estimate*1.5, 'f', -1, 64))
	a = run.Tests[0].Assertions[0]
	if r.code != 2 || a.Status != rpt.StatusErrored || !strings.Contains(a.Error, "juror") || !strings.Contains(a.Error, "--max-cost") || len(oa.Requests()) != 1 {
		t.Fatalf("half-funded jury: %d requests, %+v\n%s", len(oa.Requests()), a, r)
	}

	// A budget that fits lets the same call through and counts it.
	oa.Push(vendorfake.Reply{Text: `{"score": 0.9, "pass": true, "reason": "names Paris"}`, InputTokens: 400, OutputTokens: 20})
	if r, run = judgeRun(t, env, llmJudge, "--max-cost", "1"); r.code != 0 || len(oa.Requests()) != 2 {
		t.Fatalf("within budget:\n%s", r)
	}
	if run.Costs == nil || run.Costs.Stopped || run.Costs.TotalUSD <= 0 {
		b, _ := json.Marshal(run.Costs)
		t.Fatalf("costs = %s", b)
	}
}

// TestHostCallsVerdictCache: a second run with the same --cache-dir is
// answered from the cache (no request, the verdict marked cached, no
// cost); --no-cache asks again; a trial asks for itself.
func TestHostCallsVerdictCache(t *testing.T) {
	oa, an := judgeFakes(t)
	env := judgeEnv(oa, an)
	cache := filepath.Join(t.TempDir(), "cache")
	yes := vendorfake.Reply{Text: `{"score": 0.9, "pass": true, "reason": "names Paris"}`, InputTokens: 400, OutputTokens: 20}

	oa.Push(yes)
	r, run := judgeRun(t, env, llmJudge, "--cache-dir", cache)
	if r.code != 0 || len(oa.Requests()) != 1 {
		t.Fatalf("first run:\n%s", r)
	}
	first := run.Tests[0].Assertions[0].Eval
	if first == nil || first.Cached || first.CostUSD == nil || *first.CostUSD <= 0 {
		b, _ := json.Marshal(first)
		t.Fatalf("first eval = %s", b)
	}
	if run.Costs == nil || run.Costs.TotalUSD != *first.CostUSD || run.Costs.Calls != 1 {
		b, _ := json.Marshal(run.Costs)
		t.Fatalf("first costs = %s", b)
	}

	r, run = judgeRun(t, env, llmJudge, "--cache-dir", cache)
	if r.code != 0 || len(oa.Requests()) != 1 {
		t.Fatalf("second run made %d requests:\n%s", len(oa.Requests())-1, r)
	}
	ev := run.Tests[0].Assertions[0].Eval
	if ev == nil || !ev.Cached || ev.CachedCalls != 1 || ev.Score != 0.9 || ev.Reason != "names Paris" || ev.CostUSD == nil || *ev.CostUSD != 0 {
		b, _ := json.Marshal(ev)
		t.Fatalf("cached eval = %s", b)
	}
	if run.Costs == nil || run.Costs.CachedCalls != 1 || run.Costs.TotalUSD != 0 {
		b, _ := json.Marshal(run.Costs)
		t.Fatalf("cached costs = %s", b)
	}

	// Within one run, two tests asking the identical question share one
	// call; --no-cache asks for each.
	twice := strings.Replace(judgeSuite, "MATCHER", llmJudge, 1)
	twice += strings.Replace(twice[strings.Index(twice, "  - name: graded echo"):], "graded echo", "graded echo again", 1)
	for _, c := range []struct {
		args []string
		want int
	}{{nil, 1}, {[]string{"--no-cache"}, 2}} {
		before := len(oa.Requests())
		for range c.want {
			oa.Push(yes)
		}
		out := filepath.Join(t.TempDir(), "run.json")
		r := mcptestEnv(t, env, append(append([]string{"run", "--reporter", "json=" + out}, c.args...), writeSuite(t, twice))...)
		if got := len(oa.Requests()) - before; r.code != 0 || got != c.want {
			t.Fatalf("%v: %d requests, want %d:\n%s", c.args, got, c.want, r)
		}
		run := readRun(t, out)
		cached := 0
		for _, tt := range run.Tests {
			if tt.Assertions[0].Eval != nil && tt.Assertions[0].Eval.Cached {
				cached++
			}
		}
		if cached != 2-c.want {
			t.Fatalf("%v: %d verdicts marked cached", c.args, cached)
		}
	}

	// Two trials of one identical response are two questions.
	before := len(oa.Requests())
	oa.Push(yes, yes)
	if r, _ = judgeRun(t, env, llmJudge, "--trials", "2"); r.code != 0 || len(oa.Requests()) != before+2 {
		t.Fatalf("two trials made %d requests:\n%s", len(oa.Requests())-before, r)
	}
}

// TestHostCallsJurySeats: two jurors of the same model send the same
// request, yet each is asked (the seat tells them apart), the jury's
// cost is theirs added up and lands in the report's costs, and a cached
// rerun answers both seats without a request.
func TestHostCallsJurySeats(t *testing.T) {
	oa, an := judgeFakes(t)
	env := judgeEnv(oa, an)
	cache := filepath.Join(t.TempDir(), "cache")
	oa.Push(vendorfake.Reply{Text: `{"score": 0.9, "pass": true, "reason": "names Paris"}`, InputTokens: 400, OutputTokens: 20},
		vendorfake.Reply{Text: `{"score": 0.3, "pass": false, "reason": "too terse"}`, InputTokens: 400, OutputTokens: 20})
	jury := `          llm-jury:
            rubric: "The answer must name Paris."
            quorum: 0.5
            jurors:
              - model: gpt-4o-mini
              - model: gpt-4o-mini`
	r, run := judgeRun(t, env, jury, "--cache-dir", cache)
	if r.code != 0 || len(oa.Requests()) != 2 {
		t.Fatalf("two jurors made %d requests:\n%s", len(oa.Requests()), r)
	}
	if string(oa.Requests()[0].Body) != string(oa.Requests()[1].Body) {
		t.Fatal("the two jurors' vendor requests differ: the seat leaked to the provider")
	}
	ev := run.Tests[0].Assertions[0].Eval
	if ev == nil || len(ev.Jurors) != 2 || ev.Jurors[0].CostUSD == nil || ev.Jurors[1].CostUSD == nil || ev.CostUSD == nil {
		b, _ := json.Marshal(ev)
		t.Fatalf("jury eval = %s", b)
	}
	if sum := *ev.Jurors[0].CostUSD + *ev.Jurors[1].CostUSD; sum <= 0 || *ev.CostUSD != sum || run.Costs == nil || run.Costs.TotalUSD != sum {
		b, _ := json.Marshal(run.Costs)
		t.Fatalf("jury cost %v, costs %s", *ev.CostUSD, b)
	}
	scores := []float64{*ev.Jurors[0].Score, *ev.Jurors[1].Score}

	r, run = judgeRun(t, env, jury, "--cache-dir", cache)
	if r.code != 0 || len(oa.Requests()) != 2 {
		t.Fatalf("cached jury made %d requests:\n%s", len(oa.Requests())-2, r)
	}
	ev = run.Tests[0].Assertions[0].Eval
	if ev == nil || !ev.Cached || ev.CachedCalls != 2 || !ev.Jurors[0].Cached || !ev.Jurors[1].Cached ||
		*ev.Jurors[0].Score != scores[0] || *ev.Jurors[1].Score != scores[1] {
		b, _ := json.Marshal(ev)
		t.Fatalf("cached jury eval = %s", b)
	}
}

// TestHostCallsEmbedCost: similar's embedding call is priced, its cost
// lands on the assertion and in the report's costs, and a budget below
// it refuses the call unsent.
func TestHostCallsEmbedCost(t *testing.T) {
	oa, an := judgeFakes(t)
	env := judgeEnv(oa, an)
	sim := `          similar:
            value: "The capital of France is Paris"
            threshold: 0.9
            model: text-embedding-3-small`
	oa.Push(vendorfake.Reply{Vectors: [][]float32{{0.6, 0.8, 0}, {0.6, 0.7, 0.1}}, InputTokens: 1000000})
	r, run := judgeRun(t, env, sim)
	if r.code != 0 || len(oa.Requests()) != 1 {
		t.Fatalf("similar:\n%s", r)
	}
	// A million input tokens of text-embedding-3-small cost $0.02.
	ev := run.Tests[0].Assertions[0].Eval
	if ev == nil || ev.CostUSD == nil || *ev.CostUSD != 0.02 || run.Costs == nil || run.Costs.TotalUSD != 0.02 {
		b, _ := json.Marshal(run)
		t.Fatalf("report = %s", b)
	}
	r, run = judgeRun(t, env, sim, "--max-cost", "0")
	if a := run.Tests[0].Assertions[0]; r.code != 2 || a.Status != rpt.StatusErrored || !strings.Contains(a.Error, "--max-cost") || len(oa.Requests()) != 1 {
		t.Fatalf("similar over budget: %+v\n%s", a, r)
	}
}
