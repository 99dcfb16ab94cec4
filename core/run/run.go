package run

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/budget"
	"github.com/mcptest/mcptest/core/capture"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/eval"
	"github.com/mcptest/mcptest/core/hooks"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/score"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// CallObserver is told of one request a test sent to a server: the method
// and params as sent, and the answer (Options.OnCall).
type CallObserver func(suite *config.Suite, srv *config.Server, sess *session.Session, method string, params json.RawMessage, out *session.Outcome, err error)

// EventSink receives run events; core/report.Emitter is one.
type EventSink interface {
	Emit(ctx context.Context, ev rpt.Event)
}

// Options tune a run.
type Options struct {
	Host *plugin.Host
	// Events receives the run's events; nil drops them.
	Events EventSink
	// Concurrency bounds the requests in flight to servers; 0 means 4 ×
	// GOMAXPROCS. 1 runs the tests one after another, in plan order.
	Concurrency int
	// UpdateSnapshots is passed to matchers (--update-snapshots).
	UpdateSnapshots bool
	// ProtocolVersion pins the MCP revision of every session whose suite
	// lists no target_versions (those run at the revisions of their list,
	// each test's plan.Test.ProtocolVersion); "" means the session
	// default.
	ProtocolVersion string
	// ToolVersion is mcptest's version, recorded in the report.
	ToolVersion string
	// Redact scrubs secrets from errors and captured text.
	Redact *redact.Redactor
	// RunID identifies the run; "" generates one.
	RunID string
	// HookTimeout bounds each lifecycle hook step; 0 means the suite's
	// performance.default_timeout_ms, else plan.DefaultTimeout.
	HookTimeout time.Duration
	// NoCache turns result caching off (--no-cache): every request reaches
	// its server. Suites that declare hooks turn it off as well.
	NoCache bool
	// CacheDir, when set, keeps cacheable answers in this folder across
	// runs (--cache-dir); "" caches within the run only.
	CacheDir string
	// OnCall, when set, is told of every request a test sends to a server
	// (not cache hits nor injected errors), with the method and params as
	// sent and the server's answer; mcptest record builds cassettes from it.
	OnCall CallObserver
	// Models gives agent tests their models; nil errors every agent test.
	Models AgentModels
	// Evals grades the evals (plan.KindEval) and the judged metrics of
	// agent tests; nil errors them.
	Evals *eval.Runner
	// Pricer prices agent model calls for the suites' budget blocks
	// (core/models' router); nil meters them at no cost.
	Pricer budget.Pricer
	// ModelRecorder, when set, records agent tests' model exchanges into
	// the cassettes (mcptest record).
	ModelRecorder ModelRecorder
	// RequireModels makes an agent test, or a model-graded assertion,
	// whose model has no key an error instead of deferred
	// (--require-models, MCPTEST_REQUIRE_MODELS=1).
	RequireModels bool
	// WireAll keeps the wire frames of every test in the report (--wire
	// all); by default only tests that did not pass keep them.
	WireAll bool
	// Stopping, when set, lets Execute return before its servers have
	// stopped: their shutdown (stdin closed, a grace, SIGTERM, SIGKILL)
	// goes on in the background, counted in Stopping, which the caller
	// must wait on before it exits. Nil stops them before Execute returns.
	Stopping *sync.WaitGroup
	// MaxFailures, when positive, stops the run from starting new tests
	// once that many tests have failed or errored (--fail-fast is 1,
	// --max-failures N); the tests left out are skipped with the reason.
	MaxFailures int
}

// runner is the state of one run.
type runner struct {
	opts    Options
	plan    *plan.Plan
	servers *servers.Pool
	match   *plugin.Coalescer
	// judge judges the tests' expect entries through match.
	judge *assert.Judge
	// hooks runs the suites' hooks and transforms.
	hooks *hooks.Runner
	// caps holds the values tests capture for later tests.
	caps *capture.Store
	// cache serves identical requests from earlier answers; nil when
	// caching is off.
	cache *servers.Cache
	// tools holds each session's tools/list, read when a test needs it
	// (and shared with the cache, which reads the tools' annotations).
	tools *servers.ToolHints
	// calls bounds the requests in flight to servers (Options.Concurrency).
	calls chan struct{}
	// comp holds the compliance engine's runs (compliance.go).
	comp complianceRuns
	// stop counts failures for Options.MaxFailures (failfast.go).
	stop failFast

	mu         sync.Mutex
	pluginErrs map[string]*plugin.PluginError
	// agentx holds agent tests' spend meters and replays (agent_models.go).
	agentx agentExtras
}

// Execute runs the plan and returns the complete report. It always
// finishes: failures of servers and plugins become errored tests and run
// errors, never an early return. Cancelling ctx stops tests not yet begun
// (reported as skipped) and cuts those in flight short.
func Execute(ctx context.Context, p *plan.Plan, opts Options) *rpt.Run {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4 * runtime.GOMAXPROCS(0)
	}
	if opts.RunID == "" {
		opts.RunID = newRunID()
	}
	r := &runner{
		opts:       opts,
		plan:       p,
		servers:    servers.New(opts.ProtocolVersion, opts.ToolVersion),
		pluginErrs: map[string]*plugin.PluginError{},
		calls:      make(chan struct{}, opts.Concurrency),
	}
	r.stop.max = opts.MaxFailures
	r.hooks = &hooks.Runner{Redact: opts.Redact, Timeout: opts.HookTimeout}
	r.match = plugin.NewCoalescer(opts.Host)
	defer r.match.Close()
	r.judge = &assert.Judge{
		Match: r.match.Match, MatchInto: r.match.MatchInto, Redact: opts.Redact, OnPluginError: r.notePluginError,
		Transform: r.hooks.TransformValue, UpdateSnapshots: opts.UpdateSnapshots, RequireModels: opts.RequireModels,
	}
	r.caps = capture.NewStore(p, opts.Redact)
	r.servers.SetRedactor(opts.Redact)
	r.tools = servers.NewToolHints()
	r.cache = servers.NewCache(p, opts.NoCache, opts.CacheDir, opts.ProtocolVersion, r.tools)

	run := &rpt.Run{
		SchemaVersion: rpt.SchemaVersion,
		RunID:         opts.RunID,
		Tool:          rpt.ToolInfo{Name: "mcptest", Version: opts.ToolVersion},
		StartedAt:     time.Now().UTC(),
		Suites:        []string{},
		Tests:         make([]rpt.Test, len(p.Tests)),
		EvalsNotRun:   p.EvalsNotRun,
	}
	for _, s := range p.Suites {
		run.Suites = append(run.Suites, s.File)
		run.ModelCompatibility = appendMissing(run.ModelCompatibility, s.ModelCompatibility)
	}
	header := *run
	header.Tests = nil
	r.emitOwned(ctx, rpt.Event{Type: rpt.EventRunStarted, Total: len(p.Tests), Run: &header})

	// Tests run in batches (batches.go): the whole plan at once, or, when
	// suites declare hooks, each suite's tests between its beforeAll and
	// afterAll, one at a time when it has per-test hooks.
	for _, b := range r.batches() {
		if r.stop.stopped() {
			// No hook runs for a batch none of whose tests will start.
			for _, i := range b.Tests {
				run.Tests[i] = r.stop.notRun(p.Tests[i])
				r.caps.Finish(p.Tests[i], &run.Tests[i])
				r.emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &run.Tests[i]})
			}
			continue
		}
		r.beforeAll(ctx, &b, run)
		r.runBatch(ctx, &b, run)
		r.afterAll(ctx, &b, run)
	}

	if opts.Stopping != nil {
		// The servers stop while the caller finishes the reports.
		run.Servers = r.servers.Shutdown(opts.Stopping)
	} else {
		run.Servers = r.servers.Close()
	}
	run.Errors = append(run.Errors, r.runErrors()...)
	run.FinishedAt = time.Now().UTC()
	run.DurationMS = ms(run.FinishedAt.Sub(run.StartedAt))
	run.Summary.DurationMS = run.DurationMS
	run.Summarize()
	run.MetricRollups = score.Rollups(run.Tests)
	run.ExitCode = score.ExitCode(run)
	return run
}

// runBatch runs the batch's tests on a fixed set of workers, taking the
// tests in plan order. Workers rather than a goroutine per test: a test
// goes deep (JSON decoding, gRPC), and a fresh goroutine would grow its
// stack again for every one of thousands of tests.
func (r *runner) runBatch(ctx context.Context, b *batch, run *rpt.Run) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(b.Slots(r.opts.Concurrency), len(b.Tests)) {
		wg.Go(func() {
			for i := range next {
				t := r.plan.Tests[i]
				if ctx.Err() != nil {
					// Announced like any finished test, so a streaming
					// consumer (ndjson) sees every test of the plan.
					run.Tests[i] = notStarted(t)
					r.emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &run.Tests[i]})
					continue
				}
				if r.stop.stopped() {
					run.Tests[i] = r.stop.notRun(t)
					// Released, so a consumer already waiting on it is
					// skipped rather than left waiting.
					r.caps.Finish(t, &run.Tests[i])
					r.emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &run.Tests[i]})
					continue
				}
				start := testHeader(t)
				r.emitOwned(ctx, rpt.Event{Type: rpt.EventTestStarted, Test: &start})
				res := r.eachTest(ctx, b, t)
				if ctx.Err() != nil {
					res = cutShort(res)
				}
				r.caps.Finish(t, &res)
				r.stop.note(&res)
				run.Tests[i] = res
				r.emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Test: &res})
			}
		})
	}
	for _, i := range b.Tests {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Finish emits run_finished with the final report.
func Finish(ctx context.Context, sink EventSink, run *rpt.Run) {
	if sink != nil {
		sink.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Time: time.Now().UTC(), Run: run})
	}
}

func (r *runner) emit(ctx context.Context, ev rpt.Event) {
	if r.opts.Events == nil {
		return
	}
	ev.Time = time.Now().UTC()
	r.opts.Events.Emit(ctx, ev)
}

// OwnedSink is an EventSink that may keep an event unencoded for a while
// (core/report.Emitter.EmitOwned): the caller promises that nothing
// changes the event, nor what it points to, after the call.
type OwnedSink interface {
	EmitOwned(ctx context.Context, ev rpt.Event)
}

// emitOwned emits an event built for the call alone (the run_started
// header, a test_started header), which nothing changes afterwards: a sink
// may then put its encoding off the way to the servers' start.
func (r *runner) emitOwned(ctx context.Context, ev rpt.Event) {
	o, ok := r.opts.Events.(OwnedSink)
	if !ok {
		r.emit(ctx, ev)
		return
	}
	ev.Time = time.Now().UTC()
	o.EmitOwned(ctx, ev)
}

// notePluginError remembers a plugin failure once, for the run's errors.
func (r *runner) notePluginError(err error) {
	var pe *plugin.PluginError
	if !errors.As(err, &pe) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// The first failure of each plugin, and the one that ended it if that
	// came later (a plugin restarted after a hang that hung again): the
	// first alone would say it was started again and stop there.
	key := pe.Plugin + "@" + pe.Version
	if pe.Final {
		key += "#final"
	}
	if _, ok := r.pluginErrs[key]; !ok {
		r.pluginErrs[key] = pe
	}
}

func (r *runner) runErrors() []rpt.RunError {
	r.mu.Lock()
	defer r.mu.Unlock()
	// The map's order is random and tests finish in any order; sort by
	// plugin so the report lists its errors the same way every run.
	keys := make([]string, 0, len(r.pluginErrs))
	for k := range r.pluginErrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []rpt.RunError
	for _, k := range keys {
		pe := r.pluginErrs[k]
		out = append(out, rpt.RunError{
			Source:     "plugin",
			Name:       pe.Plugin + "@" + pe.Version,
			Message:    r.opts.Redact.String(pe.Err.Error()),
			StderrTail: r.opts.Redact.String(pe.StderrTail),
		})
	}
	return out
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// appendMissing appends the items of add that list does not hold yet.
func appendMissing(list, add []string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
