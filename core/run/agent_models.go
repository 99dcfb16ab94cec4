package run

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/agent/tracereport"
	"github.com/mcptest/mcptest/core/budget"
	"github.com/mcptest/mcptest/core/cassette/modeltape"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// ModelRecorder returns the recorder of an agent test's model exchanges:
// the one of the cassette of its first server (mcptest record). nil
// records nothing.
type ModelRecorder func(suite *config.Suite, server string) *modeltape.Recorder

// agentExtras is what the run keeps for agent tests beyond the loop: the
// suites' spend meters and the model recordings replayed from cassettes.
type agentExtras struct {
	once    sync.Once
	tapes   *modeltape.Library
	mu      sync.Mutex
	budgets map[*config.Suite]*budget.Suite
}

// agentRun is how one agent test's model is reached.
type agentRun struct {
	model    agent.Model
	family   string
	replayed bool
}

// agentModelFor returns the model of an agent test's row. A row whose
// first server is a cassette with a models section is answered from the
// recording (no key needed, nothing sent). Otherwise the live model is
// recorded when the run records, and metered against the suite's budget
// (outermost, so a refused call is neither sent nor recorded).
func (r *runner) agentModelFor(ctx context.Context, t *plan.Test) (agentRun, error) {
	x := r.extras()
	ref := t.Agent.Model
	ar := agentRun{family: familyOf(ref)}
	key := modeltape.RunKey(t.Agent.Spec.Name, ref.Provider, ref.ID, 0)
	first := t.Agent.Servers[0]
	if first.Kind == config.CassetteServer {
		p, err := x.tapes.Player(first.Cassette)
		if err != nil {
			return ar, err
		}
		if p != nil {
			ar.model, ar.replayed = p.Model(key), true
			return ar, nil
		}
	}
	m, err := r.agentModel(ctx, t)
	if err != nil {
		return ar, err
	}
	if r.opts.ModelRecorder != nil {
		if rec := r.opts.ModelRecorder(t.Suite, first.Name); rec != nil {
			m = rec.Wrap(m, key)
		}
	}
	if meter := x.budget(t.Suite); meter != nil {
		// A model without a price was refused at plan time (budget.Check);
		// a zero price here meters nothing but never blocks wrongly.
		var price sdk.ModelPrice
		if r.opts.Pricer != nil {
			price, _ = r.opts.Pricer.Price(ref)
		}
		m = budget.Wrap(m, price, meter.Test())
	}
	ar.model = m
	return ar, nil
}

// extras returns the run's agent state, made on first use.
func (r *runner) extras() *agentExtras {
	x := &r.agentx
	x.once.Do(func() {
		x.tapes = modeltape.NewLibrary(r.opts.Redact.Bytes)
		x.budgets = map[*config.Suite]*budget.Suite{}
	})
	return x
}

// budget returns the spend meter of suite s; nil when it has no budget.
func (x *agentExtras) budget(s *config.Suite) *budget.Suite {
	x.mu.Lock()
	defer x.mu.Unlock()
	b, ok := x.budgets[s]
	if !ok {
		b = budget.NewSuite(s.Budget)
		x.budgets[s] = b
	}
	return b
}

// familyOf is the provider family that serves ref: openai for a
// providers: entry (the only wire type), else by the model's name.
func familyOf(ref config.ModelRef) string {
	if ref.Provider != "" {
		return models.FamilyOpenAI
	}
	f, _ := models.Detect(ref.ID)
	return f
}

// agentReport is the trace the report carries for an agent run.
func (r *runner) agentReport(tr *agent.Trace, ar agentRun, spec agent.Spec) *rpt.Agent {
	if tr == nil {
		return nil
	}
	return tracereport.Build(tr, tracereport.Options{Family: ar.family, Replayed: ar.replayed, System: spec.System, Mask: r.opts.Redact.String})
}

// agentStopFailure names the model-call errors that are quality failures
// of the test rather than a run that could not be carried out: a spend
// budget that refused a call ("budget"), and a replayed request that
// differs from its recording ("replay_mismatch", the error holding the
// diff). "" for any other error.
func agentStopFailure(err error) string {
	switch {
	case errors.Is(err, budget.ErrExceeded):
		return "budget"
	case errors.Is(err, modeltape.ErrMismatch):
		return "replay_mismatch"
	}
	return ""
}

// agentObserver tells Options.OnCall of the requests an agent test sends
// to its servers (mcptest record); nil when nobody listens.
func (r *runner) agentObserver(t *plan.Test) func(server string, sess *session.Session, method string, params json.RawMessage, out *session.Outcome, err error) {
	if r.opts.OnCall == nil {
		return nil
	}
	return func(server string, sess *session.Session, method string, params json.RawMessage, out *session.Outcome, err error) {
		for _, srv := range t.Agent.Servers {
			if srv.Name == server {
				r.opts.OnCall(t.Suite, srv, sess, method, params, out, err)
				return
			}
		}
	}
}
