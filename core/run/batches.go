package run

import (
	"context"

	"github.com/mcptest/mcptest/core/hooks"
	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Tests run in batches: the whole plan at once, or, when suites declare
// hooks, each suite's tests between its beforeAll and afterAll (core/hooks
// runs the hooks), one at a time when it has per-test hooks.

// batch is a run of consecutive tests that share their hooks: one suite's
// tests when its suite declares hooks. A run without hooks is one batch.
type batch struct {
	// tests are indexes into the plan's tests.
	tests []int
	// hooks is nil when the batch has no hooks to run.
	hooks *hooks.Suite
}

// batches splits the plan's tests into batches: all of them at once when
// no suite with selected tests declares hooks, else one batch per run of
// tests from the same suite, in plan order.
func (r *runner) batches() []batch {
	tests := r.plan.Tests
	if !r.plan.UsesHooks() {
		all := make([]int, len(tests))
		for i := range all {
			all[i] = i
		}
		return []batch{{tests: all}}
	}
	var out []batch
	for i, t := range tests {
		if len(out) == 0 || tests[out[len(out)-1].tests[0]].Suite != t.Suite {
			out = append(out, batch{hooks: r.hooks.ForSuite(t.Suite)})
		}
		last := &out[len(out)-1]
		last.tests = append(last.tests, i)
	}
	return out
}

// slots is how many of the batch's tests may be under way at once: one
// when per-test hooks must bracket each test (a stateful session cannot be
// reset under a test in flight) or when the run is serial (-j 1: tests
// reach the server in order), otherwise testsPerCallSlot per request slot.
func (b *batch) slots(limit int) int {
	if b.hooks.PerTest() || limit == 1 {
		return 1
	}
	return limit * testsPerCallSlot
}

// testsPerCallSlot is how many tests may be under way per request slot
// (Options.Concurrency bounds requests in flight, runner.calls). A test
// spends part of its time waiting for its server and part being judged in
// plugins; with more tests than request slots, the next requests go out
// while earlier answers are judged, instead of the server idling.
const testsPerCallSlot = 4

// beforeAll runs the batch's beforeAll steps and records them in the run.
func (r *runner) beforeAll(ctx context.Context, b *batch, run *rpt.Run) {
	run.Hooks = append(run.Hooks, r.hooks.BeforeAll(ctx, b.hooks)...)
}

// afterAll runs the batch's afterAll steps once its tests are done, then
// stops whatever the suite's hooks left running.
func (r *runner) afterAll(ctx context.Context, b *batch, run *rpt.Run) {
	steps := r.hooks.AfterAll(ctx, b.hooks, func() []rpt.Test {
		tests := make([]rpt.Test, 0, len(b.tests))
		for _, i := range b.tests {
			tests = append(tests, run.Tests[i])
		}
		return tests
	})
	run.Hooks = append(run.Hooks, steps...)
}

// eachTest runs one test inside its batch: refused when beforeAll failed
// or skipped, bracketed by beforeEach and afterEach when the suite has
// them, and plain otherwise.
func (r *runner) eachTest(ctx context.Context, b *batch, t *plan.Test) rpt.Test {
	h := b.hooks
	failedAll, skipAll := h.Refusal()
	switch {
	case h == nil:
		return r.runTest(ctx, t)
	case failedAll != nil:
		// The spec: a failed beforeAll fails every test, which could not run
		// against the setup it needed.
		res := testHeader(t)
		e := *failedAll
		res.Status, res.Error = rpt.StatusFailed, &e
		return res
	case skipAll != nil:
		return skipped(t, hooks.SkipReason(rpt.HookBeforeAll, *skipAll))
	case !h.PerTest():
		return r.runTest(ctx, t)
	}
	var res rpt.Test
	before, scope, failed, skip := r.hooks.BeforeEach(ctx, h, t)
	switch {
	case failed != nil:
		res = testHeader(t)
		// The spec: a failed beforeEach fails its test, which is not sent.
		res.Status, res.Error = rpt.StatusFailed, &rpt.Error{Kind: "hook", Message: hooks.FailureMessage(failed)}
	case skip != nil:
		res = skipped(t, hooks.SkipReason(rpt.HookBeforeEach, *skip))
	default:
		res = r.runTest(ctx, t)
	}
	after := r.hooks.AfterEach(ctx, h, t, scope, &res)
	res.Hooks = append(before, after...)
	return res
}
