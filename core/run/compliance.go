package run

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/compliance"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/internal/jsonx"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Compliance entries of a suite run the built-in checks of core/compliance
// (the engine of `mcptest compliance run`) against a suite's server. The
// checks a run's entries need on one server run together, once, on the
// engine's own processes or HTTP sessions (a check that could crash the
// server gets a fresh one); each entry then reports the results of its
// own checks as one test:
//
//   - a MUST failure fails the test;
//   - a SHOULD failure alone makes it warned, with check.severity
//     "SHOULD": a warning, which every reporter shows as one and which
//     does not fail the run;
//   - an entry that runs several checks (a prefix, "*", a sequence) has
//     one assertion per check, each naming its own check (id, severity of
//     what was broken), so findings are reported under the real check
//     and never under the entry's pattern;
//   - a check that does not apply to the server is a skipped assertion,
//     and an entry none of whose checks applies is skipped with the
//     reason;
//   - a check that could not be carried out errors the test.
//
// The initialize and tools/list sequences also give expect a response to
// judge: the initialize result, and the tools/list envelope of a list test.

// complianceRuns holds the engine's runs of one mcptest run, one per
// suite and server.
type complianceRuns struct {
	mu sync.Mutex
	m  map[string]*complianceRun
}

// complianceRun is the engine's run for one server.
type complianceRun struct {
	once    sync.Once
	rep     *compliance.Report
	results map[string]*compliance.Result
	err     error
}

// runCompliance runs one compliance entry.
func (r *runner) runCompliance(ctx context.Context, t *plan.Test) (res rpt.Test) {
	res = testHeader(t)
	pc := t.Compliance
	res.Check = &rpt.Check{ID: pc.Spec.Check, Title: complianceTitle(pc), Severity: string(compliance.Must)}
	cr := r.complianceRun(ctx, t)
	if cr.err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: compliance.ErrorKindCheck, Message: r.opts.Redact.String(cr.err.Error())}
		return res
	}
	results := make([]*compliance.Result, 0, len(pc.Checks))
	for _, c := range pc.Checks {
		if res, ok := cr.results[c.ID]; ok {
			results = append(results, res)
		}
	}
	// The test's ProtocolVersion stays the plan's (set only for suites
	// that list target_versions); the revision checked is the check's.
	res.Check.Revision = cr.rep.Revision
	if pc.Sequence == "" && len(results) == 1 {
		return r.singleCheck(res, results[0])
	}
	var envelope json.RawMessage
	if pc.Sequence != "" {
		var err error
		if envelope, err = r.sequenceEnvelope(ctx, t, cr.rep); err != nil {
			res.Status = rpt.StatusErrored
			res.Error = &rpt.Error{Kind: callErrorKind(err), Message: r.opts.Redact.String(err.Error())}
			return res
		}
		res.Assertions = r.judge.Test(ctx, t, envelope)
		assert.Verdict(t, &res, nil)
	}
	r.checkResults(&res, results, len(t.Assertions) > 0)
	if res.Status != rpt.StatusPassed && envelope != nil {
		res.Response = r.truncate(envelope)
	}
	return res
}

// complianceTitle describes what an entry checks.
func complianceTitle(pc *plan.Compliance) string {
	ids := make([]string, len(pc.Checks))
	for i, c := range pc.Checks {
		ids[i] = c.ID
	}
	switch {
	case pc.Sequence != "":
		return fmt.Sprintf("%s, judged by %s", pc.Sequence, strings.Join(ids, ", "))
	case len(pc.Checks) == 1:
		return pc.Checks[0].Title
	}
	return fmt.Sprintf("%d compliance checks: %s", len(ids), strings.Join(ids, ", "))
}

// singleCheck reports an entry that names one check the way `mcptest
// compliance run` reports that check: its findings as the assertions.
func (r *runner) singleCheck(res rpt.Test, cr *compliance.Result) rpt.Test {
	ct := cr.Test(res.Server)
	res.Status, res.Error, res.Assertions = ct.Status, ct.Error, ct.Assertions
	res.Check = ct.Check
	if res.Error != nil {
		res.Error.Message = r.opts.Redact.String(res.Error.Message)
	}
	if ct.Status != rpt.StatusPassed && ct.Status != rpt.StatusSkipped {
		res.Frames = r.redactFrames(ct.Frames)
		res.Stderr = r.opts.Redact.String(ct.Stderr)
	}
	return res
}

// checkResults appends one assertion per check to res and settles its
// status with what expect (judged already when hasExpect) decided.
func (r *runner) checkResults(res *rpt.Test, results []*compliance.Result, hasExpect bool) {
	var must, should, errored, applied []string
	var reasons []string
	for _, cr := range results {
		c := cr.Check
		a := rpt.Assertion{Index: len(res.Assertions), Target: c.ID + " " + c.Title, Matcher: string(c.Severity),
			Message: r.opts.Redact.String(cr.Message),
			Check:   &rpt.Check{ID: c.ID, Title: c.Title, Severity: string(c.Severity), Revision: cr.Revision, Section: c.Section}}
		switch cr.Status {
		case compliance.Pass:
			a.Status = rpt.StatusPassed
			applied = append(applied, c.ID)
		case compliance.Fail, compliance.Warn:
			// The level is what was broken: a SHOULD finding of a MUST
			// check is a warning.
			a.Status = rpt.StatusFailed
			a.Matcher = string(compliance.Must)
			if cr.Status == compliance.Warn {
				a.Matcher = string(compliance.Should)
				should = append(should, c.ID)
			} else {
				must = append(must, c.ID)
			}
			a.Check.Severity = a.Matcher
			for _, f := range cr.Test(res.Server).Assertions {
				if f.Status == rpt.StatusFailed {
					a.Failure = r.opts.Redact.Bytes(f.Failure)
					break
				}
			}
			applied = append(applied, c.ID)
		case compliance.NotApplicable:
			a.Status = rpt.StatusSkipped
			reasons = append(reasons, c.ID+": "+cr.Message)
		default:
			a.Status = rpt.StatusErrored
			a.Error = r.opts.Redact.String(cr.Message)
			errored = append(errored, c.ID)
			applied = append(applied, c.ID)
		}
		if a.Status == rpt.StatusFailed || a.Status == rpt.StatusErrored {
			// Frames only for findings, as compliance.Result.Test keeps
			// them: a check that could not run may still have called a
			// tool whose answer no report should hold.
			if a.Status == rpt.StatusFailed {
				res.Frames = append(res.Frames, r.redactFrames(cr.Frames)...)
			}
			if res.Stderr == "" {
				res.Stderr = r.opts.Redact.String(cr.Stderr)
			}
		}
		res.Assertions = append(res.Assertions, a)
	}
	expectStatus := res.Status
	switch {
	case expectStatus == rpt.StatusErrored:
	case len(errored) > 0:
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: compliance.ErrorKindCheck, Message: fmt.Sprintf("could not run %s", strings.Join(errored, ", "))}
	case expectStatus == rpt.StatusFailed || len(must) > 0:
		res.Status = rpt.StatusFailed
		if len(must) > 0 && res.Error == nil {
			res.Error = &rpt.Error{Kind: "compliance", Message: "MUST requirements broken: " + strings.Join(must, ", ")}
		}
	case len(should) > 0:
		res.Status = rpt.StatusWarned
		res.Check.Severity = string(compliance.Should)
		res.Error = &rpt.Error{Kind: "compliance", Message: "SHOULD requirements broken (a warning): " + strings.Join(should, ", ")}
	case len(applied) == 0 && !hasExpect:
		res.Status = rpt.StatusSkipped
		res.Error = &rpt.Error{Kind: compliance.ErrorKindNotApplicable, Message: strings.Join(reasons, "; ")}
	default:
		res.Status = rpt.StatusPassed
	}
}

// redactFrames masks secrets in a check's evidence.
func (r *runner) redactFrames(fs []rpt.Frame) []rpt.Frame {
	if r.opts.Redact == nil {
		return fs
	}
	out := make([]rpt.Frame, len(fs))
	for i, f := range fs {
		f.Data = r.opts.Redact.Bytes(f.Data)
		out[i] = f
	}
	return out
}

// sequenceEnvelope is the response a sequence's expect judges: the
// initialize (or, in the modern era, server/discover) result the engine
// received, or the tools/list envelope of the run's own session.
func (r *runner) sequenceEnvelope(ctx context.Context, t *plan.Test, rep *compliance.Report) (json.RawMessage, error) {
	if t.Compliance.Sequence == plan.SequenceInitialize {
		result := json.RawMessage("null")
		if rep.Server != nil && len(rep.Server.Result) > 0 {
			result = rep.Server.Result
		}
		env, err := jsonx.Encode(map[string]json.RawMessage{"result": result})
		return r.opts.Redact.Bytes(env), err
	}
	sess, err := r.servers.Get(ctx, t.Suite, t.Server, t.ProtocolVersion)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, t.Timeout)
	defer cancel()
	lt := &config.ListTest{List: config.ListTools, MaxPages: config.DefaultMaxPages}
	lister := *t
	lister.List = lt
	l, err := r.readList(cctx, &lister, sess, nil)
	if err != nil {
		return nil, err
	}
	return r.opts.Redact.Bytes(l.envelope(lt)), nil
}

// complianceRun returns the engine's run for t's server, making it on
// first use with every check the run's entries need on that server.
func (r *runner) complianceRun(ctx context.Context, t *plan.Test) *complianceRun {
	key := t.Suite.File + "\x00" + t.Server.Name + "\x00" + t.ProtocolVersion
	r.comp.mu.Lock()
	if r.comp.m == nil {
		r.comp.m = map[string]*complianceRun{}
	}
	cr := r.comp.m[key]
	if cr == nil {
		cr = &complianceRun{}
		r.comp.m[key] = cr
	}
	r.comp.mu.Unlock()
	cr.once.Do(func() { r.startCompliance(ctx, t, cr) })
	return cr
}

// startCompliance runs the checks of every compliance entry of the run on
// t's server.
func (r *runner) startCompliance(ctx context.Context, t *plan.Test, cr *complianceRun) {
	var ids []string
	checkTimeout := t.Timeout
	for _, o := range r.plan.Tests {
		if o.Kind != plan.KindCompliance || o.Suite != t.Suite || o.Server != t.Server || o.ProtocolVersion != t.ProtocolVersion {
			continue
		}
		checkTimeout = max(checkTimeout, o.Timeout)
		for _, c := range o.Compliance.Checks {
			if !slices.Contains(ids, c.ID) {
				ids = append(ids, c.ID)
			}
		}
	}
	// The checks speak the test's revision: a suite's target_versions
	// entry, else the run's.
	revision := cmp.Or(t.ProtocolVersion, r.opts.ProtocolVersion)
	target, cleanup, err := r.complianceTarget(t.Suite, t.Server, revision)
	if err != nil {
		cr.err = err
		return
	}
	defer cleanup()
	rep, err := compliance.Run(ctx, target, compliance.Options{
		Revision:      revision,
		Timeout:       complianceTimeout,
		CheckTimeout:  checkTimeout,
		Only:          ids,
		ClientVersion: r.opts.ToolVersion,
		Redact:        r.opts.Redact,
	})
	switch {
	case err != nil:
		cr.err = fmt.Errorf("compliance checks on server %q: %w", t.Server.Name, err)
		return
	case rep.Err != nil:
		cr.err = fmt.Errorf("compliance checks on server %q: the server could not be initialised: %w", t.Server.Name, rep.Err)
		return
	}
	cr.rep = rep
	r.servers.NoteProbed(t.Suite, t.Server, t.ProtocolVersion, rep.ServerRecord())
	cr.results = make(map[string]*compliance.Result, len(rep.Results))
	for _, res := range rep.Results {
		cr.results[res.Check.ID] = res
	}
	if ctx.Err() != nil {
		// Checks cut short by Ctrl-C are not the server's fault.
		cr.err = fmt.Errorf("compliance checks on server %q: %w", t.Server.Name, ctx.Err())
	}
}

// complianceTimeout is how long a check waits for any one answer.
const complianceTimeout = 5 * time.Second

// complianceTarget says how the engine reaches a suite's server: its
// command and env (on a fresh fixture copy, removed by cleanup), or its
// URL with the credentials and headers the run would send.
func (r *runner) complianceTarget(suite *config.Suite, srv *config.Server, revision string) (compliance.Target, func(), error) {
	none := func() {}
	switch srv.Kind {
	case config.URLServer:
		cfg, err := r.servers.HTTPConfig(suite, srv, revision)
		if err != nil {
			return compliance.Target{}, none, err
		}
		t := compliance.Target{URL: srv.URL, Header: httpHeader(cfg.Headers)}
		if tok := cfg.Auth.BearerToken; tok != "" {
			t.Header.Set("Authorization", "Bearer "+tok)
		}
		t.Client, err = complianceClient(srv)
		return t, none, err
	case config.StdioServer, "":
		run, dir := srv, ""
		if srv.Fixture != "" {
			var err error
			if dir, err = servers.CopyFixture(srv.Fixture); err != nil {
				return compliance.Target{}, none, fmt.Errorf("server %q: %w", srv.Name, err)
			}
			run = servers.WithFixture(srv, dir)
		}
		env := make([]string, 0, len(run.Env))
		for k, v := range run.Env {
			env = append(env, k+"="+v)
		}
		slices.Sort(env)
		return compliance.Target{Command: run.Command, Env: env}, func() { _ = servers.RemoveFixture(dir) }, nil
	}
	return compliance.Target{}, none, fmt.Errorf("server %q: compliance checks probe a live server, not a %s", srv.Name, srv.Kind)
}
