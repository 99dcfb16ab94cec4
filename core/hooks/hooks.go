package hooks

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/internal/proc"
	"github.com/mcptest/mcptest/internal/redact"
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

// Runner runs the hooks and transforms of a run's suites.
type Runner struct {
	// Redact scrubs secrets from what hooks and transforms print.
	Redact *redact.Redactor
	// Timeout bounds each lifecycle hook step; 0 means the suite's
	// performance.default_timeout_ms, else plan.DefaultTimeout.
	Timeout time.Duration
	// envs caches the environment of each suite's hooks and transforms.
	envs suiteEnvs
}

// Suite is the hook state of one suite during its batch of tests.
type Suite struct {
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

// ForSuite returns the hook state of s for one batch of its tests, or nil
// when s declares no hooks.
func (r *Runner) ForSuite(s *config.Suite) *Suite {
	if s.Hooks == nil {
		return nil
	}
	se := r.envs.of(s)
	return &Suite{suite: s, hooks: s.Hooks, env: se, scope: newHookScope(s, se)}
}

// PerTest reports whether the suite has beforeEach or afterEach steps.
func (h *Suite) PerTest() bool {
	return h != nil && (len(h.hooks.BeforeEach) > 0 || len(h.hooks.AfterEach) > 0)
}

// BeforeAll runs the suite's beforeAll steps and returns their records.
// A failure or a skip it asks for is kept for Refusal.
func (r *Runner) BeforeAll(ctx context.Context, h *Suite) []rpt.Hook {
	if h == nil || ctx.Err() != nil {
		return nil
	}
	h.ran = true
	if len(h.hooks.BeforeAll) == 0 {
		return nil
	}
	steps, failed, skip := r.runPhase(ctx, h, rpt.HookBeforeAll, h.hooks.BeforeAll, &h.scope, nil, nil)
	if failed != nil {
		h.failed = &rpt.Error{Kind: "hook", Message: FailureMessage(failed)}
	}
	h.skip = skip
	return steps
}

// AfterAll runs the suite's afterAll steps once its tests are done (their
// results in tests), then stops whatever the suite's hooks left running.
// It returns the steps' records.
func (r *Runner) AfterAll(ctx context.Context, h *Suite, tests func() []rpt.Test) []rpt.Hook {
	if h == nil {
		return nil
	}
	var steps []rpt.Hook
	if len(h.hooks.AfterAll) > 0 && h.ran {
		// Teardown runs even when the run was interrupted.
		steps, _, _ = r.runPhase(context.WithoutCancel(ctx), h, rpt.HookAfterAll, h.hooks.AfterAll, &h.scope, nil, suiteOutcome(tests()))
	}
	h.reap()
	return steps
}

// Refusal says whether beforeAll refused the suite's tests: failed, when
// it failed (every test fails with that error), or skip, the reason a
// context hook gave for skipping them all.
func (h *Suite) Refusal() (failed *rpt.Error, skip *string) {
	if h == nil {
		return nil, nil
	}
	return h.failed, h.skip
}

// Scope is what one test's hooks see and change: beforeEach's patches
// reach the test's afterEach, not the next test.
type Scope struct{ sc hookScope }

// BeforeEach runs the suite's beforeEach steps for t and returns their
// records, the scope afterEach continues from, and the step that failed or
// the skip a context hook asked for, if any.
func (r *Runner) BeforeEach(ctx context.Context, h *Suite, t *plan.Test) (recs []rpt.Hook, scope *Scope, failed *rpt.Hook, skip *string) {
	scope = &Scope{h.scope.clone()}
	recs, failed, skip = r.runPhase(ctx, h, rpt.HookBeforeEach, h.hooks.BeforeEach, &scope.sc, t, nil)
	return recs, scope, failed, skip
}

// AfterEach runs the suite's afterEach steps for t, which ended as res,
// in the scope BeforeEach left, even when ctx is cancelled.
func (r *Runner) AfterEach(ctx context.Context, h *Suite, t *plan.Test, scope *Scope, res *rpt.Test) []rpt.Hook {
	after, _, _ := r.runPhase(context.WithoutCancel(ctx), h, rpt.HookAfterEach, h.hooks.AfterEach, &scope.sc, t, testOutcome(res))
	return after
}

// runPhase runs the steps of one phase in order against scope. A before
// phase stops at the first failure (returned) or skip; an after phase
// runs every step and its patches' skips are ignored (the test already
// ran).
func (r *Runner) runPhase(ctx context.Context, h *Suite, phase string, steps []*config.HookStep, scope *hookScope, t *plan.Test, result *hookOutcome) (out []rpt.Hook, failed *rpt.Hook, skip *string) {
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
func (r *Runner) runHook(ctx context.Context, h *Suite, phase string, step *config.HookStep, scope hookScope, t *plan.Test, result *hookOutcome) (rpt.Hook, *hookPatch) {
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
		DurationMS: float64(res.duration.Microseconds()) / 1000,
		Stderr:     r.Redact.String(res.stderr),
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
		rec.Stdout = r.Redact.String(string(res.stdout))
	}
	err := res.err
	var patch *hookPatch
	if err == nil && step.Context {
		patch, err = parsePatch(res.stdout)
	}
	if err != nil {
		rec.Status = rpt.StatusFailed
		rec.Error = r.Redact.String(err.Error())
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

// hookTimeout bounds each hook step: Runner.Timeout, else the suite's
// performance.default_timeout_ms, else plan.DefaultTimeout.
func (r *Runner) hookTimeout(s *config.Suite) time.Duration {
	switch {
	case r.Timeout > 0:
		return r.Timeout
	case s.DefaultTimeoutMS > 0:
		return time.Duration(s.DefaultTimeoutMS) * time.Millisecond
	}
	return plan.DefaultTimeout
}

// keepGroup remembers a hook's process group when something in it is
// still running after the hook exited.
func (h *Suite) keepGroup(pgid int) {
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
func (h *Suite) reap() {
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

// FailureMessage is the message of a test refused because a hook failed.
func FailureMessage(h *rpt.Hook) string {
	msg := fmt.Sprintf("%s hook %q failed: %s", h.Phase, h.Command, h.Error)
	if s := strings.TrimSpace(h.Stderr); s != "" {
		msg += "\nstderr:\n" + s
	}
	return msg
}

// SkipReason is the message of a test a context hook skipped.
func SkipReason(phase, reason string) string {
	if reason == "" {
		return "a " + phase + " hook asked to skip it"
	}
	return phase + " hook: " + reason
}
