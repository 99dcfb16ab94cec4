package judge

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/sdk"
)

var price = sdk.ModelPrice{Model: "judge-model", InputPerMTok: 3, OutputPerMTok: 15}

func pricedSource(m *scripted) source {
	return source{models: map[string]*scripted{"judge-model": m}, prices: map[string]sdk.ModelPrice{"judge-model": price}}
}

func TestCacheAcrossEngines(t *testing.T) {
	dir := t.TempDir()
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{crit("a"), crit("b")}})
	spec := WithJudge(Spec{Rubric: r}, &config.Judge{Jury: &config.Jury{Size: 3}})
	usage := sdk.Usage{InputTokens: 1000, OutputTokens: 100}

	first := &scripted{answer: byCriterion(map[string]float64{"a": 0.9, "b": 0.7}), usage: usage}
	ev1, err := engine(t, first, Options{Models: pricedSource(first), Cache: verdictcache.New(dir)}).Grade(context.Background(), spec, fixed)
	if err != nil {
		t.Fatal(err)
	}
	// A jury of 3 over 2 criteria makes 6 calls: the juror index is in the key.
	if first.calls() != 6 || ev1.Cached || ev1.CachedCalls != 0 {
		t.Fatalf("first run: %d calls, eval %+v", first.calls(), ev1)
	}
	want := 6 * price.Cost(usage)
	if ev1.CostUSD == nil || math.Abs(*ev1.CostUSD-want) > 1e-12 {
		t.Fatalf("cost = %v, want %v", ev1.CostUSD, want)
	}

	second := &scripted{answer: byCriterion(nil), usage: usage}
	ev2, err := engine(t, second, Options{Models: pricedSource(second), Cache: verdictcache.New(dir)}).Grade(context.Background(), spec, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if second.calls() != 0 || !ev2.Cached || ev2.CachedCalls != 6 || ev2.Calls != 6 {
		t.Fatalf("second run: %d calls, eval %+v", second.calls(), ev2)
	}
	if ev2.Score != ev1.Score || !ev2.Criteria[0].Cached || !ev2.Jurors[2].Cached {
		t.Fatalf("cached grade differs: %+v", ev2)
	}
	if ev2.CostUSD == nil || *ev2.CostUSD != 0 {
		t.Fatalf("cached answers cost %v, want 0", ev2.CostUSD)
	}
	// Another trial is graded anew.
	c := fixed
	c.TrialIndex = 1
	if _, err := engine(t, second, Options{Models: pricedSource(second), Cache: verdictcache.New(dir)}).Grade(context.Background(), spec, c); err != nil {
		t.Fatal(err)
	}
	if second.calls() != 6 {
		t.Fatalf("trial 1 made %d calls, want 6", second.calls())
	}
}

func TestCacheStoresMaskedVerdict(t *testing.T) {
	dir := t.TempDir()
	m := &scripted{answer: func(int, sdk.ChatRequest) string { return verdict(1, "the key sk-live-999 was shown") }}
	e := engine(t, m, Options{Cache: verdictcache.New(dir), Redactor: redactorOf("sk-live-999")})
	ev, err := e.Grade(context.Background(), Spec{Rubric: textSpec(t)}, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ev.Reason, "sk-live-999") {
		t.Fatalf("reason leaks: %s", ev.Reason)
	}
	if leaked := grepDir(t, dir, "sk-live-999"); leaked != "" {
		t.Fatalf("cache file %s holds the secret", leaked)
	}
}

func TestMaxCostStopsBeforeTheCall(t *testing.T) {
	usage := sdk.Usage{InputTokens: 1000, OutputTokens: 300}
	m := &scripted{answer: byCriterion(map[string]float64{"a": 1, "b": 1}), usage: usage}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{crit("a"), crit("b")}})
	// The first call's estimate (prompt/3 + 512 max tokens at the price)
	// fits; after it settles at its real cost, the second's does not.
	one := costcap.Estimate(sdk.ChatRequest{System: systemPrompt, Messages: []sdk.Message{{Content: criterionPrompt(&r.Criteria[0], fixed, fixed.Text(), false).User}}, MaxTokens: DefaultMaxTokens}, price)
	actual := price.Cost(usage)
	if one/2 >= actual || one <= actual {
		t.Fatalf("test figures: estimate %v, actual %v", one, actual)
	}
	cp := costcap.New(actual + one/2)
	_, err := engine(t, m, Options{Models: pricedSource(m), Cap: cp}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if !errors.Is(err, ErrMaxCost) {
		t.Fatalf("err = %v, want ErrMaxCost", err)
	}
	if m.calls() != 1 || !cp.Stopped() {
		t.Fatalf("%d calls reached the model, want 1 (the second refused before it was sent)", m.calls())
	}
	// What was spent is the real cost of the one call, not its estimate.
	if math.Abs(cp.Spent()-price.Cost(usage)) > 1e-12 {
		t.Fatalf("spent = %v, want %v", cp.Spent(), price.Cost(usage))
	}
}

func TestCachedAnswersPassTheCap(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"a": 1})}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{crit("a")}})
	cache := verdictcache.New("")
	if _, err := engine(t, m, Options{Models: pricedSource(m), Cache: cache}).Grade(context.Background(), Spec{Rubric: r}, fixed); err != nil {
		t.Fatal(err)
	}
	_, err := engine(t, m, Options{Models: pricedSource(m), Cache: cache, Cap: costcap.New(0)}).Grade(context.Background(), Spec{Rubric: r}, fixed)
	if err != nil {
		t.Fatalf("a cached answer was refused by an empty budget: %v", err)
	}
}

func TestUnpricedModelUnderCap(t *testing.T) {
	m := &scripted{answer: byCriterion(nil)}
	_, err := engine(t, m, Options{Cap: costcap.New(10)}).Grade(context.Background(), Spec{Rubric: textSpec(t)}, fixed)
	if !errors.Is(err, ErrUnpriced) || m.calls() != 0 {
		t.Fatalf("err = %v, %d calls", err, m.calls())
	}
}

func TestShowJudgingMasked(t *testing.T) {
	var out bytes.Buffer
	m := &scripted{answer: func(n int, _ sdk.ChatRequest) string {
		if n == 0 {
			return "oops"
		}
		return verdict(1, "echoes tok-abc")
	}}
	c := Candidate{Prompt: "p", Response: "answer with tok-abc inside"}
	e := engine(t, m, Options{ShowJudging: &out, Redactor: redactorOf("tok-abc")})
	if _, err := e.Grade(context.Background(), Spec{Rubric: textSpec(t)}, c); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, "tok-abc") {
		t.Fatalf("show-judging leaks:\n%s", s)
	}
	for _, want := range []string{"prompt", "[system]", "accurate summary", "unusable reply", "repair", "score=1.00"} {
		if !strings.Contains(s, want) {
			t.Errorf("show-judging lacks %q:\n%s", want, s)
		}
	}
}

// TestConcurrentGradesAskOnce: graders running at once over a shared
// cache ask the model once per distinct question, however they
// interleave.
func TestConcurrentGradesAskOnce(t *testing.T) {
	m := &scripted{answer: byCriterion(map[string]float64{"a": 1, "b": 0.5})}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{crit("a"), crit("b")}})
	cache := verdictcache.New("")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := engine(t, m, Options{Cache: cache}).Grade(context.Background(), Spec{Rubric: r}, fixed)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if m.calls() != 2 {
		t.Fatalf("%d model calls for 2 distinct questions", m.calls())
	}
}
