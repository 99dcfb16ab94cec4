package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/budget"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/score"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/internal/timeline"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// execution is what the commands that run suites (run, record) share: the
// plan, where its reports go, and the run options particular to the
// command. Execute fills in the host, the reporters and the redactor.
type execution struct {
	cmd     string
	plan    *plan.Plan
	outputs []report.Output
	plugins pluginFlags
	noColor bool
	opts    run.Options
	// finish, when set, amends the report before run_finished is sent.
	finish func(*rpt.Run)
	// gate, when set, may change the exit code once it is computed
	// (--fail-on-regression, --min-pass-rate).
	gate func(*rpt.Run) int
	// registry resolves the provider plugins of model calls.
	registry *plugin.Registry
	// judging holds --max-cost, --show-judging and eval's model flags.
	judging judgeFlags
}

// execute starts the plugins the plan and its outputs need, has the
// matchers vet their arguments, opens the reporters, runs the plan and
// closes the reports. It returns the exit code.
func (e execution) execute(ctx context.Context, stdout, stderr io.Writer) int {
	redactor := redact.New(suiteSecrets(e.plan)...)
	// Plugins reach models through the host (B5): the service is offered
	// at launch, and routes through the router once the host exists.
	services := &models.HostService{}
	host := plugin.NewHost(e.plugins.launcher(stderr), plugin.HostOptions{CallTimeout: e.plugins.timeout, Services: services})
	defer host.Close()
	router := models.New(models.Options{Backend: models.PluginBackend(e.registry, host), Providers: planProviders(e.plan),
		Getenv: planGetenv(e.plan), Redactor: redactor})
	services.Caller = router
	services.DefaultModel = func() (string, error) { return judge.DefaultModel(planGetenv(e.plan)) }
	// A budget whose models have no price could not be enforced: refuse
	// the run before anything starts (prices come from the manifests).
	if errs := budgetErrors(e.plan, router); len(errs) > 0 {
		fmt.Fprintf(stderr, "%v\n", errs)
		return score.ExitError
	}
	// The gate before any side effect: the matcher plugins vet the
	// suite's arguments, so a bad suite exits before a server starts. A
	// verdict a plugin that vets purely gave in an earlier run is
	// remembered (core/plugin's vetting cache), and only the plugins with
	// an argument not vetted before start now (in parallel); the others
	// start beside the servers, and the first match waits for them.
	// Reporter plugins are not part of the gate either: they start beside
	// the servers (report.Open), and events wait for them.
	if err := assert.CheckArguments(ctx, host, e.plan); err != nil {
		var pe *plugin.PluginError
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "mcptest %s: %v\n", e.cmd, err)
		} else {
			fmt.Fprintf(stderr, "%v\n", err)
		}
		return score.ExitError
	}
	timeline.Mark("gate-passed")
	emitter, err := report.Open(ctx, host, e.outputs, terminals(stdout, stderr, e.noColor), redactor)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest %s: %v\n", e.cmd, err)
		return score.ExitError
	}
	// The matcher plugins not started by the gate start now, beside the
	// servers; a start that fails errors the assertions that needed the
	// plugin and is a run error (exit 2).
	host.Prestart(e.plan.Matchers)
	// From here on a signal stops the tests but lets the reports finish:
	// tests in flight end (plugin calls within the plugin timeout), the
	// servers stop, and each reporter gets the final report within the
	// plugin timeout.
	finishOnInterrupt(ctx, 2*e.plugins.timeout+30*time.Second)
	opts := e.opts
	opts.Host, opts.Events, opts.Redact, opts.ToolVersion = host, emitter, redactor, version
	// The servers stop while the final reports are written; both are
	// waited for before mcptest exits, so nothing outlives the run.
	var stopping sync.WaitGroup
	opts.Stopping = &stopping
	opts.Pricer = router
	if opts.Models == nil {
		opts.Models = agent.RouterModels{Router: router}
	}
	opts.Evals = e.judging.evalRunner(router, planGetenv(e.plan), redactor, opts.NoCache, opts.CacheDir, stderr)
	opts.Evals.RequireModels = opts.RequireModels
	// Plugins' model calls (the judge matchers) share the evals' cap and
	// verdict cache, so --max-cost and --no-cache hold for them too.
	services.Cap, services.Cache, services.Redact = opts.Evals.Cap, opts.Evals.Cache, redactor
	if e.cmd == "eval" {
		// The projected judge calls up front, so a jury does not
		// surprise the --max-cost budget.
		fmt.Fprintf(stderr, "mcptest eval: %s\n", opts.Evals.Project(e.plan))
	}
	result := run.Execute(ctx, e.plan, opts)
	timeline.Mark("tests-done")
	e.judging.noteBudget(result, opts.Evals.Cap)
	if e.finish != nil {
		e.finish(result)
	}
	// Reporter failures so far belong in the report itself.
	result.Errors = append(result.Errors, emitter.Errors()...)
	result.ExitCode = score.ExitCode(result)
	if e.gate != nil {
		result.ExitCode = e.gate(result)
	}
	if ctx.Err() != nil {
		noteInterrupt(ctx, result)
	}
	run.Finish(ctx, emitter, result)
	code := result.ExitCode
	known := len(emitter.Errors())
	closeErrs := emitter.Close(ctx)
	timeline.Mark("reports-done")
	// The plugins' work is done: they stop beside the servers.
	var plugins sync.WaitGroup
	plugins.Go(host.Close)
	stopping.Wait()
	timeline.Mark("servers-stopped")
	plugins.Wait()
	timeline.Mark("plugins-stopped")
	// A reporter that never started wrote nothing, and it may have been
	// the one for the terminal: it is told on stderr too.
	started := map[rpt.RunError]bool{}
	for _, re := range emitter.StartErrors() {
		started[re] = true
		fmt.Fprintf(stderr, "mcptest %s: reporter %s: %s\n", e.cmd, re.Name, re.Message)
		if re.StderrTail != "" {
			fmt.Fprintf(stderr, "  last stderr lines:\n%s\n", indent(re.StderrTail, "    "))
		}
		if code != exitInterrupted {
			code = score.ExitError
		}
	}
	for _, re := range closeErrs[known:] {
		if started[re] {
			continue
		}
		// A reporter that failed while writing the final report can only be
		// told on stderr.
		fmt.Fprintf(stderr, "mcptest: reporter %s failed: %s\n", re.Name, re.Message)
		if re.StderrTail != "" {
			fmt.Fprintf(stderr, "  last stderr lines:\n%s\n", indent(re.StderrTail, "    "))
		}
		if code != exitInterrupted {
			code = score.ExitError
		}
	}
	return code
}

// noteInterrupt marks the report of an interrupted run: its exit code is
// 130 and a run error says what stopped it and how many tests it left
// unreached.
func noteInterrupt(ctx context.Context, result *rpt.Run) {
	unreached := 0
	for _, t := range result.Tests {
		if t.Status == rpt.StatusSkipped && t.Error != nil && t.Error.Kind == run.KindInterrupted {
			unreached++
		}
	}
	msg := context.Cause(ctx).Error()
	if !errors.Is(context.Cause(ctx), errInterrupted) {
		msg = "interrupted"
	}
	if unreached > 0 {
		msg = fmt.Sprintf("%s; %d test(s) cut short or not started were skipped", msg, unreached)
	}
	result.Errors = append(result.Errors, rpt.RunError{Source: rpt.ErrorSourceInterrupt, Message: msg})
	result.ExitCode = exitInterrupted
}

// planProviders joins the providers: entries of the planned suites; the
// first suite declaring a name wins.
func planProviders(p *plan.Plan) map[string]models.Provider {
	out := map[string]models.Provider{}
	for _, s := range p.Suites {
		for name, prov := range models.ProvidersOf(s) {
			if _, ok := out[name]; !ok {
				out[name] = prov
			}
		}
	}
	return out
}

// budgetErrors checks every suite's budget block against the models' prices
// (core/budget.Check).
func budgetErrors(p *plan.Plan, pricer budget.Pricer) config.Errors {
	var errs config.Errors
	for _, s := range p.Suites {
		errs = append(errs, budget.Check(s, pricer)...)
	}
	return errs
}

// planGetenv reads model keys and base URLs as the suites read variables:
// the process environment, then each suite's dotenv files.
func planGetenv(p *plan.Plan) func(string) string {
	return func(name string) string {
		for _, s := range p.Suites {
			if v, ok := s.LookupEnv(name); ok {
				return v
			}
		}
		return os.Getenv(name)
	}
}
