package judge

import (
	"context"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
)

// BenchmarkGradeFiveCriteria is the engine's own cost of a five-criterion
// grade (prompts, parsing, combining) over a model that answers at once.
func BenchmarkGradeFiveCriteria(b *testing.B) {
	m := &scripted{answer: byCriterion(map[string]float64{"a": 1, "b": 0.8, "c": 0.6, "d": 0.9, "e": 1})}
	var cs []*config.Criterion
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		cs = append(cs, crit(n))
	}
	r, _ := Resolve(nil, &config.Rubric{Criteria: cs}, 0.7)
	e := New(Options{Models: source{models: map[string]*scripted{"judge-model": m}}, DefaultModel: "judge-model"})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := e.Grade(context.Background(), Spec{Rubric: r}, fixed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGradeCached is the same grade answered from the verdict cache.
func BenchmarkGradeCached(b *testing.B) {
	m := &scripted{answer: byCriterion(nil)}
	var cs []*config.Criterion
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		cs = append(cs, crit(n))
	}
	r, _ := Resolve(nil, &config.Rubric{Criteria: cs}, 0.7)
	e := New(Options{Models: source{models: map[string]*scripted{"judge-model": m}}, DefaultModel: "judge-model", Cache: verdictcache.New("")})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := e.Grade(context.Background(), Spec{Rubric: r}, fixed); err != nil {
			b.Fatal(err)
		}
	}
}
