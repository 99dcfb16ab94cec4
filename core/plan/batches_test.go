package plan

import (
	"reflect"
	"testing"

	"github.com/mcptest/mcptest/core/config"
)

func TestBatches(t *testing.T) {
	step := []*config.HookStep{{}}
	plain := &config.Suite{File: "plain.yml"}
	all := &config.Suite{File: "all.yml", Hooks: &config.Hooks{BeforeAll: step}}
	each := &config.Suite{File: "each.yml", Hooks: &config.Hooks{BeforeEach: step}}

	// No selected test has hooks: one batch of everything, however the
	// suites interleave.
	p := &Plan{Tests: []*Test{{Suite: plain}, {Suite: plain}}}
	if got, want := p.Batches(), []Batch{{Tests: []int{0, 1}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("without hooks: %+v, want %+v", got, want)
	}

	// With hooks: one batch per run of tests from one suite, in plan
	// order; only suites with hooks carry their suite.
	p = &Plan{Tests: []*Test{{Suite: plain}, {Suite: all}, {Suite: all}, {Suite: each}, {Suite: plain}}}
	want := []Batch{{Tests: []int{0}}, {Tests: []int{1, 2}, Suite: all}, {Tests: []int{3}, Suite: each}, {Tests: []int{4}}}
	got := p.Batches()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("with hooks: %+v, want %+v", got, want)
	}
	for i, w := range []int{8 * TestsPerCallSlot, 8 * TestsPerCallSlot, 1, 8 * TestsPerCallSlot} {
		if s := got[i].Slots(8); s != w {
			t.Errorf("batch %d: %d slots at -j 8, want %d", i, s, w)
		}
		if s := got[i].Slots(1); s != 1 {
			t.Errorf("batch %d: %d slots at -j 1, want 1", i, s)
		}
	}
}
