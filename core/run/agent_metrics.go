package run

import (
	"context"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/eval"
	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// judgeMetrics grades an agent test's eval: metrics (core/eval) after its
// expect entries, one report row each, and folds them into the verdict:
// an errored metric errors the test, a failed one fails it, and a
// deferred one (no key for the judge, a metric that does not apply)
// makes an otherwise passing test deferred, never passed (a missing key
// is an errored row under --require-models: core/eval decides).
func (r *runner) judgeMetrics(ctx context.Context, t *plan.Test, tr *agent.Trace, res *rpt.Test) {
	if r.opts.Evals == nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "eval", Message: "this run has no judge for the eval: metrics"}
		return
	}
	tape, err := r.judgeTape(t.Suite, t.Agent.Servers[0])
	if err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "cassette", Message: r.opts.Redact.String(err.Error())}
		return
	}
	rows := r.opts.Evals.Metrics(ctx, t, tr, tape, len(res.Assertions))
	res.Assertions = append(res.Assertions, rows...)
	var errored, failed, deferred *rpt.Assertion
	for i := range rows {
		switch a := &rows[i]; a.Status {
		case rpt.StatusErrored:
			errored = first(errored, a)
		case rpt.StatusFailed:
			failed = first(failed, a)
		case rpt.StatusDeferred:
			deferred = first(deferred, a)
		}
	}
	switch {
	case errored != nil:
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "eval", Message: errored.Matcher + ": " + errored.Message}
	case res.Status != rpt.StatusPassed:
	case failed != nil:
		res.Status = rpt.StatusFailed
		res.Error = &rpt.Error{Kind: "eval", Message: failed.Matcher + ": " + failed.Message}
	case deferred != nil:
		res.Status = rpt.StatusDeferred
		res.Error = &rpt.Error{Kind: "deferred", Message: deferred.Matcher + ": " + deferred.Message}
	}
}

func first(have, a *rpt.Assertion) *rpt.Assertion {
	if have != nil {
		return have
	}
	return a
}

// judgeTape is where the judge calls of a test on srv are recorded
// (mcptest record) or replayed from: the model tape of srv's cassette.
// nil when neither; an error when srv's cassette cannot be read (a
// broken tape must not quietly fall back to a live judge).
func (r *runner) judgeTape(s *config.Suite, srv *config.Server) (*eval.Tape, error) {
	if srv == nil {
		return nil, nil
	}
	tape := &eval.Tape{Scrub: r.opts.Redact.Bytes}
	if srv.Kind == config.CassetteServer {
		p, err := r.extras().tapes.Player(srv.Cassette)
		if err != nil {
			return nil, err
		}
		if p != nil {
			tape.Player = p
			return tape, nil
		}
	}
	if r.opts.ModelRecorder != nil {
		tape.Recorder = r.opts.ModelRecorder(s, srv.Name)
	}
	if tape.Recorder == nil {
		return nil, nil
	}
	return tape, nil
}
