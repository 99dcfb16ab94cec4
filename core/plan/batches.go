package plan

import "github.com/mcptest/mcptest/core/config"

// Batch is a run of consecutive tests of the plan that share their hooks:
// one suite's tests when that suite declares hooks. A run whose selected
// tests have no hooks is one batch of every test.
type Batch struct {
	// Tests are indexes into the plan's Tests, in plan order.
	Tests []int
	// Suite is the suite whose hooks bracket the batch; nil when there are
	// none to run.
	Suite *config.Suite
}

// Batches splits the plan's tests into batches: all of them at once when
// no suite with selected tests declares hooks, else one batch per run of
// tests from the same suite, in plan order. The executor runs each batch
// between its suite's beforeAll and afterAll.
func (p *Plan) Batches() []Batch {
	tests := p.Tests
	if !p.UsesHooks() {
		all := make([]int, len(tests))
		for i := range all {
			all[i] = i
		}
		return []Batch{{Tests: all}}
	}
	var out []Batch
	for i, t := range tests {
		if len(out) == 0 || tests[out[len(out)-1].Tests[0]].Suite != t.Suite {
			b := Batch{}
			if t.Suite.Hooks != nil {
				b.Suite = t.Suite
			}
			out = append(out, b)
		}
		last := &out[len(out)-1]
		last.Tests = append(last.Tests, i)
	}
	return out
}

// Slots is how many of the batch's tests may be under way at once, given
// limit requests in flight: one when per-test hooks must bracket each test
// (a stateful session cannot be reset under a test in flight) or when the
// run is serial (limit 1: tests reach the server in order), otherwise
// TestsPerCallSlot per request slot.
func (b Batch) Slots(limit int) int {
	if (b.Suite != nil && SuitePerTestHooks(b.Suite)) || limit == 1 {
		return 1
	}
	return limit * TestsPerCallSlot
}

// TestsPerCallSlot is how many tests may be under way per request slot. A
// test spends part of its time waiting for its server and part being
// judged in plugins; with more tests than request slots, the next requests
// go out while earlier answers are judged, instead of the server idling.
const TestsPerCallSlot = 4
