package run

import (
	"context"

	"github.com/mcptest/mcptest/core/hooks"
	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Tests run in the plan's batches (plan.Plan.Batches): the whole plan at
// once, or, when suites declare hooks, each suite's tests between its
// beforeAll and afterAll (core/hooks runs the hooks), one at a time when
// it has per-test hooks.

// batch is one of the plan's batches (plan.Batch) with the hook state of
// its suite; hooks is nil when the batch has no hooks to run.
type batch struct {
	plan.Batch
	hooks *hooks.Suite
}

// batches pairs each of the plan's batches with its suite's hook state.
func (r *runner) batches() []batch {
	pbs := r.plan.Batches()
	out := make([]batch, len(pbs))
	for i, pb := range pbs {
		out[i] = batch{Batch: pb}
		if pb.Suite != nil {
			out[i].hooks = r.hooks.ForSuite(pb.Suite)
		}
	}
	return out
}

// beforeAll runs the batch's beforeAll steps and records them in the run.
func (r *runner) beforeAll(ctx context.Context, b *batch, run *rpt.Run) {
	run.Hooks = append(run.Hooks, r.hooks.BeforeAll(ctx, b.hooks)...)
}

// afterAll runs the batch's afterAll steps once its tests are done, then
// stops whatever the suite's hooks left running.
func (r *runner) afterAll(ctx context.Context, b *batch, run *rpt.Run) {
	steps := r.hooks.AfterAll(ctx, b.hooks, func() []rpt.Test {
		tests := make([]rpt.Test, 0, len(b.Tests))
		for _, i := range b.Tests {
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
