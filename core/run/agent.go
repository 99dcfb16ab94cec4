package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/session"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// AgentModels gives agent tests their models (core/models' router behind
// an adapter, agent.RouterModels). An error matching models.ErrNoKey
// defers the test; any other error errors it.
type AgentModels interface {
	Model(ctx context.Context, suite *config.Suite, ref config.ModelRef) (agent.Model, error)
}

// runAgent runs one model of an agent test (core/agent) and judges the
// trace: the expect entries on its JSON form, the recovery gate, and a
// tripped cap as a failure.
func (r *runner) runAgent(ctx context.Context, t *plan.Test) (res rpt.Test) {
	res = testHeader(t)
	a := t.Agent
	trace, ar, spec, err := r.driveAgent(ctx, t)
	var fail *agentFailure
	if errors.As(err, &fail) {
		if fail.model {
			return r.agentModelError(t, res, fail.err)
		}
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "server_start", Message: r.opts.Redact.String(fail.err.Error())}
		return res
	}
	res.Agent = r.agentReport(trace, ar, spec)
	stopped := errors.Is(err, agent.ErrCap) || agentStopFailure(err) != ""
	if err != nil && !stopped {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: agentErrorKind(err), Message: r.opts.Redact.String(err.Error())}
		return res
	}
	doc, jerr := trace.JSON()
	if jerr != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "agent", Message: "encode the trace: " + jerr.Error()}
		return res
	}
	// Secrets a server or the model echoed are masked before anything
	// judges the trace, as for a tool test's response.
	doc = r.opts.Redact.Bytes(doc)
	res.Assertions = r.judge.Test(ctx, t, doc)
	res.Assertions = append(res.Assertions, recoveryAssertions(trace, a.Spec.Recovery, len(res.Assertions))...)
	assert.Verdict(t, &res, nil)
	if a.Spec.Eval != nil && !stopped && res.Status != rpt.StatusErrored {
		// A run a cap stopped has failed already; judging it would only
		// spend.
		r.judgeMetrics(ctx, t, trace, &res)
	}
	if stopped && res.Status != rpt.StatusErrored {
		// A cap is a quality failure: the model did not finish within what
		// the test allows. So are a spend budget that refused a call and a
		// replay whose request differs from the recording.
		res.Status = rpt.StatusFailed
		res.Error = &rpt.Error{Kind: trace.Conversation.StopReason, Message: r.opts.Redact.String(trace.Conversation.StopDetail)}
		if kind := agentStopFailure(err); kind != "" {
			res.Error = &rpt.Error{Kind: kind, Message: r.opts.Redact.String(err.Error())}
		}
	}
	// The trace is not copied into res.Response when the test fails: it
	// is res.Agent already, which every reporter renders, and a second
	// copy doubled the size of a failing agent test in every report.
	return res
}

// agentFailure is an agent run that could not start: its model cannot be
// had (model, deferred when the key is missing) or a server did not start.
type agentFailure struct {
	model bool
	err   error
}

func (e *agentFailure) Error() string { return e.err.Error() }
func (e *agentFailure) Unwrap() error { return e.err }

// driveAgent runs one agent test's loop against its servers (held for the
// run) and returns the trace. An *agentFailure says the run never
// started; any other error is the loop's.
func (r *runner) driveAgent(ctx context.Context, t *plan.Test) (*agent.Trace, agentRun, agent.Spec, error) {
	a := t.Agent
	ar, err := r.agentModelFor(ctx, t)
	if err != nil {
		return nil, ar, agent.Spec{}, &agentFailure{model: true, err: err}
	}
	tools := &agent.SessionTools{Sessions: map[string]*session.Session{}, Observe: r.agentObserver(t)}
	for _, srv := range a.Servers {
		sess, err := r.servers.Get(ctx, t.Suite, srv, t.ProtocolVersion)
		if err != nil {
			return nil, ar, agent.Spec{}, &agentFailure{err: fmt.Errorf("server %s: %w", srv.Name, err)}
		}
		defer r.servers.Hold(t.Suite, srv, t.ProtocolVersion, false)()
		tools.Order = append(tools.Order, srv.Name)
		tools.Sessions[srv.Name] = sess
	}
	spec := agent.SpecOf(t.Suite, a.Spec, a.Model)
	trace, err := agent.Run(ctx, spec, ar.model, tools)
	return trace, ar, spec, err
}

// agentModel obtains the model of the test's row.
func (r *runner) agentModel(ctx context.Context, t *plan.Test) (agent.Model, error) {
	if r.opts.Models == nil {
		return nil, errors.New("this run has no model providers")
	}
	return r.opts.Models.Model(ctx, t.Suite, t.Agent.Model)
}

// agentModelError reports a model that cannot be had: deferred when its
// key is missing (an error with --require-models), errored otherwise.
func (r *runner) agentModelError(t *plan.Test, res rpt.Test, err error) rpt.Test {
	if errors.Is(err, models.ErrNoKey) {
		return r.deferred(res, err)
	}
	res.Status = rpt.StatusErrored
	res.Error = &rpt.Error{Kind: "model", Message: fmt.Sprintf("model %s: %s", plan.ModelLabel(t.Agent.Model), r.opts.Redact.String(err.Error()))}
	return res
}

// deferred reports a test whose model (or judge) has no key: deferred,
// naming the variable, or errored under --require-models.
func (r *runner) deferred(res rpt.Test, err error) rpt.Test {
	msg := r.opts.Redact.String(err.Error())
	if r.opts.RequireModels {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "no_model_key", Message: msg + " (--require-models / MCPTEST_REQUIRE_MODELS=1 make a missing key an error)"}
		return res
	}
	res.Status = rpt.StatusDeferred
	res.Error = &rpt.Error{Kind: "deferred", Message: msg}
	return res
}

// recoveryAssertions reports the recovery gate as assertions after the
// expect entries (first is the index of the first).
func recoveryAssertions(tr *agent.Trace, rec *config.Recovery, first int) []rpt.Assertion {
	checks := agent.RecoveryGate(tr, rec)
	out := make([]rpt.Assertion, 0, len(checks))
	for i, c := range checks {
		a := rpt.Assertion{Index: first + i, Target: c.Target, Matcher: "recovery." + c.Name, Message: c.Message, Status: rpt.StatusPassed}
		if !c.Passed {
			a.Status = rpt.StatusFailed
			a.Failure, _ = json.Marshal(map[string]any{"expected": c.Expected, "actual": c.Actual, "note": c.Message})
		}
		out = append(out, a)
	}
	return out
}

func agentErrorKind(err error) string {
	switch {
	case errors.Is(err, agent.ErrToolCatalogue):
		return "tool_catalogue"
	case errors.Is(err, context.Canceled):
		return "interrupted"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "model"
}
