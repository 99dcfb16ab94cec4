package run

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/internal/proc"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Lifecycle hooks. beforeAll and afterAll bracket the tests of their
// suite; beforeEach and afterEach bracket each test. Before phases stop
// at their first failing step and guard the tests (a failure errors them:
// they could not run against the setup they needed); after phases run
// every step whatever happened, even on Ctrl-C, and their failures are
// only reported, since the tests already ran.

// hookStdoutTail is how much of a plain hook's stdout the report keeps.
const hookStdoutTail = 4 << 10

// reapGrace is how long processes a suite's hooks left running get
// between SIGTERM and SIGKILL when the suite ends.
const reapGrace = 500 * time.Millisecond

// batch is a run of consecutive tests that share their hooks: one suite's
// tests when its suite declares hooks. A run without hooks is one batch.
type batch struct {
	// tests are indexes into the plan's tests.
	tests []int
	// hooks is nil when the batch has no hooks to run.
	hooks *suiteHooks
}

// suiteHooks is the hook state of one suite during its batch.
type suiteHooks struct {
	suite *config.Suite
	hooks *config.Hooks
	env   *suiteEnv
	// scope is what beforeAll left for the tests' hooks and afterAll.
	scope hookScope
	// ran is set when the batch began (the run was not interrupted
	// before it), so afterAll has something to tear down.
	ran bool
	// failed errors every test of the suite: beforeAll failed.
	failed *rpt.Error
	// skip, when set, skips every test: a beforeAll hook asked.
	skip *string

	mu sync.Mutex
	// groups are process groups that still had members when their hook
	// exited (a fixture started in the background); they are stopped
	// when the suite ends, so nothing a hook started outlives the run.
	groups []int
}

// perTest reports whether the suite has beforeEach or afterEach steps.
func (h *suiteHooks) perTest() bool {
	return h != nil && (len(h.hooks.BeforeEach) > 0 || len(h.hooks.AfterEach) > 0)
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
			b := batch{}
			if t.Suite.Hooks != nil {
				se := r.envs.of(t.Suite)
				b.hooks = &suiteHooks{suite: t.Suite, hooks: t.Suite.Hooks, env: se, scope: newHookScope(t.Suite, se)}
			}
			out = append(out, b)
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
	if b.hooks.perTest() || limit == 1 {
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
	h := b.hooks
	if h == nil || ctx.Err() != nil {
		return
	}
	h.ran = true
	if len(h.hooks.BeforeAll) == 0 {
		return
	}
	steps, failed, skip := r.runPhase(ctx, h, rpt.HookBeforeAll, h.hooks.BeforeAll, &h.scope, nil, nil)
	run.Hooks = append(run.Hooks, steps...)
	if failed != nil {
		h.failed = &rpt.Error{Kind: "hook", Message: hookFailure(failed)}
	}
	h.skip = skip
}

// afterAll runs the batch's afterAll steps once its tests are done, then
// stops whatever the suite's hooks left running.
func (r *runner) afterAll(ctx context.Context, b *batch, run *rpt.Run) {
	h := b.hooks
	if h == nil {
		return
	}
	if len(h.hooks.AfterAll) > 0 && h.ran {
		tests := make([]rpt.Test, 0, len(b.tests))
		for _, i := range b.tests {
			tests = append(tests, run.Tests[i])
		}
		// Teardown runs even when the run was interrupted.
		steps, _, _ := r.runPhase(context.WithoutCancel(ctx), h, rpt.HookAfterAll, h.hooks.AfterAll, &h.scope, nil, suiteOutcome(tests))
		run.Hooks = append(run.Hooks, steps...)
	}
	h.reap()
}

// eachTest runs one test inside its batch: refused when beforeAll failed
// or skipped, bracketed by beforeEach and afterEach when the suite has
// them, and plain otherwise.
func (r *runner) eachTest(ctx context.Context, b *batch, t *plan.Test) rpt.Test {
	h := b.hooks
	switch {
	case h == nil:
		return r.runTest(ctx, t)
	case h.failed != nil:
		// The spec: a failed beforeAll fails every test, which could not run
		// against the setup it needed.
		res := testHeader(t)
		e := *h.failed
		res.Status, res.Error = rpt.StatusFailed, &e
		return res
	case h.skip != nil:
		return skipped(t, skipReason(rpt.HookBeforeAll, *h.skip))
	case !h.perTest():
		return r.runTest(ctx, t)
	}
	scope := h.scope.clone()
	var res rpt.Test
	before, failed, skip := r.runPhase(ctx, h, rpt.HookBeforeEach, h.hooks.BeforeEach, &scope, t, nil)
	switch {
	case failed != nil:
		res = testHeader(t)
		// The spec: a failed beforeEach fails its test, which is not sent.
		res.Status, res.Error = rpt.StatusFailed, &rpt.Error{Kind: "hook", Message: hookFailure(failed)}
	case skip != nil:
		res = skipped(t, skipReason(rpt.HookBeforeEach, *skip))
	default:
		res = r.runTest(ctx, t)
	}
	after, _, _ := r.runPhase(context.WithoutCancel(ctx), h, rpt.HookAfterEach, h.hooks.AfterEach, &scope, t, testOutcome(&res))
	res.Hooks = append(before, after...)
	return res
}

// runPhase runs the steps of one phase in order against scope. A before
// phase stops at the first failure (returned) or skip; an after phase
// runs every step and its patches' skips are ignored (the test already
// ran).
func (r *runner) runPhase(ctx context.Context, h *suiteHooks, phase string, steps []*config.HookStep, scope *hookScope, t *plan.Test, result *hookOutcome) (out []rpt.Hook, failed *rpt.Hook, skip *string) {
	before := phase == rpt.HookBeforeAll || phase == rpt.HookBeforeEach
	for _, step := range steps {
		rec, patch := r.runHook(ctx, h, phase, step, *scope, t, result)
		out = append(out, rec)
		if rec.Status != rpt.StatusPassed {
			if before {
				return out, &out[len(out)-1], nil
			}
			continue
		}
		if patch == nil {
			continue
		}
		patch.apply(scope)
		if patch.skip != nil && before {
			return out, nil, patch.skip
		}
	}
	return out, nil, nil
}

// runHook runs one step and returns its record and, for a context hook
// that succeeded, its patch.
func (r *runner) runHook(ctx context.Context, h *suiteHooks, phase string, step *config.HookStep, scope hookScope, t *plan.Test, result *hookOutcome) (rpt.Hook, *hookPatch) {
	extra := append(scope.environ(), EnvHookPhase+"="+phase)
	if t != nil {
		extra = append(extra, EnvTestName+"="+t.Name, EnvTestID+"="+t.ID)
	}
	c := command{
		argv:      step.Command.Argv,
		env:       h.env.with(extra...),
		timeout:   r.hookTimeout(h.suite),
		stdoutMax: hookStdoutTail,
		tail:      true,
	}
	if step.Context {
		c.stdin = payload(phase, h.suite, t, scope, result)
		c.stdoutMax, c.tail = patchLimit, false
	}
	res := runCommand(ctx, c)
	h.keepGroup(res.pgid)

	rec := rpt.Hook{
		Phase:      phase,
		Command:    step.Command.Line,
		Status:     rpt.StatusPassed,
		DurationMS: ms(res.duration),
		Stderr:     r.opts.Redact.String(res.stderr),
	}
	if t == nil {
		rec.Suite = h.suite.File
	}
	if res.exitCode >= 0 {
		code := res.exitCode
		rec.ExitCode = &code
	}
	if step.Context {
		rec.Mode = "context"
	} else {
		rec.Stdout = r.opts.Redact.String(string(res.stdout))
	}
	err := res.err
	var patch *hookPatch
	if err == nil && step.Context {
		patch, err = parsePatch(res.stdout)
	}
	if err != nil {
		rec.Status = rpt.StatusFailed
		rec.Error = r.opts.Redact.String(err.Error())
		return rec, nil
	}
	if patch != nil && patch.skip != nil {
		rec.Skip = *patch.skip
		if rec.Skip == "" {
			rec.Skip = "(no reason given)"
		}
	}
	return rec, patch
}

// hookTimeout bounds each hook step: Options.HookTimeout, else the suite's
// performance.default_timeout_ms, else plan.DefaultTimeout.
func (r *runner) hookTimeout(s *config.Suite) time.Duration {
	switch {
	case r.opts.HookTimeout > 0:
		return r.opts.HookTimeout
	case s.DefaultTimeoutMS > 0:
		return time.Duration(s.DefaultTimeoutMS) * time.Millisecond
	}
	return plan.DefaultTimeout
}

// keepGroup remembers a hook's process group when something in it is
// still running after the hook exited.
func (h *suiteHooks) keepGroup(pgid int) {
	if !proc.GroupAlive(pgid) {
		return
	}
	h.mu.Lock()
	h.groups = append(h.groups, pgid)
	h.mu.Unlock()
}

// reap stops the processes the suite's hooks left behind: SIGTERM, a
// short grace, then SIGKILL. A group that afterAll already emptied is
// left alone. A process that must outlive the run has to leave its
// group (setsid, a daemon).
func (h *suiteHooks) reap() {
	h.mu.Lock()
	groups := h.groups
	h.groups = nil
	h.mu.Unlock()
	var alive []int
	for _, g := range groups {
		if proc.GroupAlive(g) {
			_ = proc.SignalGroup(g, proc.SigTerm)
			alive = append(alive, g)
		}
	}
	deadline := time.Now().Add(reapGrace)
	for len(alive) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		n := 0
		for _, g := range alive {
			if proc.GroupAlive(g) {
				alive[n] = g
				n++
			}
		}
		alive = alive[:n]
	}
	for _, g := range alive {
		_ = proc.SignalGroup(g, proc.SigKill)
	}
}

// hookFailure is the message of a test refused because a hook failed.
func hookFailure(h *rpt.Hook) string {
	msg := fmt.Sprintf("%s hook %q failed: %s", h.Phase, h.Command, h.Error)
	if s := strings.TrimSpace(h.Stderr); s != "" {
		msg += "\nstderr:\n" + s
	}
	return msg
}

// skipReason is the message of a test a context hook skipped.
func skipReason(phase, reason string) string {
	if reason == "" {
		return "a " + phase + " hook asked to skip it"
	}
	return phase + " hook: " + reason
}
