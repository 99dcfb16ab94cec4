package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/internal/timeline"
	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// runFlags are the flags of `mcptest run`.
type runFlags struct {
	pluginFlags
	suiteFlags
	selectFlags
	outputFlags
	updateSnapshots bool
	allowUpdateInCI bool
	shard           string
	runID           string
	noCache         bool
	cacheDir        string
	requireModels   bool
	failFast        bool
	maxFailures     int
	list            bool
	listJSON        bool
	lastFailed      bool
	ids             []string
	history         string
	trialFlags
	// judging holds the flags of model-graded checks (--max-cost,
	// --show-judging; --explain for mcptest eval): cmd_eval.go.
	judging judgeFlags
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runSuites(ctx, "run", args, stdout, stderr)
}

// runSuites is `mcptest run` and `mcptest eval` (cmd "eval"): one flag
// set and one pipeline; eval plans the evals block only and adds
// --explain.
func runSuites(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) int {
	var f runFlags
	fs := newFlagSet(cmd, stderr)
	usage := "usage: mcptest " + cmd + " [flags] SUITE.yml... (or --config SUITE.yml)"
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	f.outputFlags.register(fs)
	fs.BoolVarP(&f.updateSnapshots, "update-snapshots", "u", false, "rewrite the snapshots the run touches")
	fs.BoolVar(&f.allowUpdateInCI, "allow-update-in-ci", false, "let --update-snapshots rewrite snapshots even when CI=true")
	fs.StringVar(&f.shard, "shard", "", "run only shard i of n (i/n), chosen by a stable hash of each test's id")
	fs.StringVar(&f.runID, "run-id", "", "id recorded in the report (default: generated); give all shards of a CI run the same one")
	fs.BoolVar(&f.noCache, "no-cache", false, "send every request to its server; never answer one from the result cache")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "keep cacheable answers in this folder and reuse them in later runs")
	fs.BoolVar(&f.requireModels, "require-models", os.Getenv(requireModelsEnv) == "1",
		"an agent test or model-graded assertion whose model has no key is an error (exit 2), not deferred; also "+requireModelsEnv+"=1")
	fs.BoolVarP(&f.failFast, "fail-fast", "x", false, "stop starting tests after the first failed or errored test; the rest are reported skipped")
	fs.IntVar(&f.maxFailures, "max-failures", 0, "stop starting tests after N failed or errored tests (0: never)")
	fs.BoolVar(&f.list, "list", false, "print the selected tests (after --tag, --include, --shard, --last-failed...) and exit without starting anything")
	fs.BoolVar(&f.listJSON, "json", false, "with --list: one JSON object a line (id, name, kind, file, line, tags, server)")
	fs.StringVar(&f.history, "history", "", "also save the run's JSON report in this folder, for mcptest report trend --history DIR")
	fs.BoolVar(&f.lastFailed, "last-failed", false, "run only the tests that failed or errored last time (recorded in ./.mcptest/last-failed.json); all tests when none is recorded")
	fs.StringArrayVar(&f.ids, "id", nil, "run only the test with this exact id, as --list and reports show it (repeatable)")
	f.trialFlags.register(fs)
	f.judging.register(fs, cmd == "eval")
	f.pluginFlags.register(fs)
	f.suiteFlags.register(fs)
	f.selectFlags.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if !f.trialFlags.check(stderr) {
		return 2
	}
	maxFailures, err := f.failureLimit()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest "+cmd+": %v\n", err)
		return 2
	}
	if f.listJSON && !f.list {
		fmt.Fprintln(stderr, "mcptest "+cmd+": --json works with --list; for a JSON report write --reporter json")
		return 2
	}
	if len(f.files(fs.Args())) == 0 {
		fmt.Fprintln(stderr, "mcptest "+cmd+": no suite given; "+usage)
		return 2
	}
	// A CI job must never rewrite golden files behind a reviewer's back.
	if f.updateSnapshots && isCI() && !f.allowUpdateInCI {
		fmt.Fprintln(stderr, "mcptest "+cmd+": --update-snapshots is refused when CI=true; pass --allow-update-in-ci to rewrite snapshots in CI anyway")
		return 2
	}
	if f.noCache && f.cacheDir != "" {
		fmt.Fprintln(stderr, "mcptest "+cmd+": --no-cache and --cache-dir contradict each other; give one")
		return 2
	}
	wireAll, err := f.wireAll()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest "+cmd+": %v\n", err)
		return 2
	}
	var shardIndex, shardTotal int
	if f.shard != "" {
		var err error
		if shardIndex, shardTotal, err = plan.ParseShard(f.shard); err != nil {
			fmt.Fprintf(stderr, "mcptest "+cmd+": --shard: %v\n", err)
			return 2
		}
	}
	p, reg, code, ok := loadAndPlanFor(f.files(fs.Args()), f.pluginFlags, f.suiteFlags, f.selection(), cmd == "eval", stderr)
	if !ok {
		return code
	}
	timeline.Mark("planned")
	if cmd == "eval" && len(p.Tests) == 0 && p.Total == 0 {
		fmt.Fprintln(stderr, "mcptest eval: the suites have no evals: block; mcptest run runs their other tests")
		return 2
	}
	if shardTotal > 0 {
		p.Shard(shardIndex, shardTotal)
	}
	if f.lastFailed && !applyLastFailed(p, stderr) {
		return 2
	}
	if !applyIDs(p, f.ids, stderr) {
		return 2
	}
	f.trialFlags.apply(p)
	if f.judging.explain {
		return explainEvals(p, reg, f.judging, stdout, stderr)
	}
	if f.list {
		if err := p.WriteList(stdout, f.listJSON); err != nil {
			fmt.Fprintf(stderr, "mcptest "+cmd+": %v\n", err)
			return 2
		}
		return 0
	}
	outputs, err := resolveOutputs(reg, "--reporter", f.reporters, f.output)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest "+cmd+": %v\n", err)
		return 2
	}
	if f.history != "" {
		o, err := historyOutput(reg, f.history, f.runID)
		if err != nil {
			fmt.Fprintf(stderr, "mcptest "+cmd+": --history: %v\n", err)
			return 2
		}
		outputs = append(outputs, o)
	}

	finish := func(r *rpt.Run) {
		if shardTotal > 0 {
			r.Shard = &rpt.Shard{Index: shardIndex, Total: shardTotal}
		}
		f.trialFlags.finish(r)
		recordLastFailed(r, stderr)
	}
	return execution{
		cmd: cmd, judging: f.judging, plan: p, registry: reg, outputs: outputs, plugins: f.pluginFlags, noColor: f.noColor, finish: finish,
		gate: func(r *rpt.Run) int { return f.trialFlags.gate(r, stderr) },
		opts: run.Options{
			ProtocolVersion: f.targetVersion, Concurrency: f.jobs, WireAll: wireAll,
			UpdateSnapshots: f.updateSnapshots, RunID: f.runID,
			NoCache: f.noCache, CacheDir: f.cacheDir, MaxFailures: maxFailures, RequireModels: f.requireModels,
		},
	}.execute(ctx, stdout, stderr)
}

// requireModelsEnv set to 1 is --require-models, for CI jobs that are
// meant to have model keys.
const requireModelsEnv = "MCPTEST_REQUIRE_MODELS"

// historyOutput is the JSON report a run saves into its --history folder;
// it goes through the json reporter like any report, secrets masked.
func historyOutput(reg *plugin.Registry, dir, runID string) (report.Output, error) {
	path, err := report.HistoryFile(dir, time.Now(), runID)
	if err != nil {
		return report.Output{}, err
	}
	found, err := reg.Resolve(sdk.KindReporter, "json")
	if err != nil {
		return report.Output{}, err
	}
	return report.Output{Format: "json", Plugin: found, Path: path}, nil
}

// failureLimit turns -x and --max-failures into run.Options.MaxFailures.
func (f *runFlags) failureLimit() (int, error) {
	switch {
	case f.maxFailures < 0:
		return 0, fmt.Errorf("--max-failures %d: give a positive number of failures (0 means no limit)", f.maxFailures)
	case f.failFast && f.maxFailures > 1:
		return 0, fmt.Errorf("--fail-fast stops at the first failure and --max-failures %d at the %d-th; give one", f.maxFailures, f.maxFailures)
	case f.failFast:
		return 1, nil
	}
	return f.maxFailures, nil
}

// suiteSecrets gathers the credential values every planned suite read, so
// they are masked in every report, log and message.
func suiteSecrets(p *plan.Plan) []string {
	var out []string
	for _, s := range p.Suites {
		out = append(out, s.Secrets...)
	}
	return out
}

// loadAndPlan loads the suites and plans them; on failure it prints the
// errors and returns the exit code. sel is the run's selection; nil plans
// every test for validate, where gaps are notes rather than errors.
func loadAndPlan(files []string, pf pluginFlags, sf suiteFlags, sel *plan.Selection, stderr io.Writer) (*plan.Plan, *plugin.Registry, int, bool) {
	return loadAndPlanFor(files, pf, sf, sel, false, stderr)
}

// loadAndPlanFor is loadAndPlan; evals plans the evals block only
// (mcptest eval, plan.Options.Evals).
func loadAndPlanFor(files []string, pf pluginFlags, sf suiteFlags, sel *plan.Selection, evals bool, stderr io.Writer) (*plan.Plan, *plugin.Registry, int, bool) {
	fitMemoryLimit(files)
	// Plugin discovery reads only the plugin folders: it runs beside the
	// suites' loading, off the way to the first server start.
	regc := make(chan *plugin.Registry, 1)
	go func() { regc <- plugin.NewRegistry(pf.sources()) }()
	suites, err := config.LoadFilesWith(files, sf.options())
	if err != nil {
		fmt.Fprintln(stderr, err)
		<-regc
		return nil, nil, 2, false
	}
	if err := sf.http.apply(suites, stderr); err != nil {
		fmt.Fprintf(stderr, "mcptest: %v\n", err)
		<-regc
		return nil, nil, 2, false
	}
	printLoadNotes(suites, stderr)
	reg := <-regc
	warnProblems(reg, stderr)
	opts := plan.Options{TargetVersion: sf.targetVersion, Evals: evals}
	if sel != nil {
		opts.Selection, opts.Run = *sel, true
	}
	p, err := plan.BuildWith(suites, reg, opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, 2, false
	}
	printSelection(p, sel, stderr)
	return p, reg, 0, true
}

// resolveOutputs turns the NAME[=PATH] specs and --output into outputs
// with their plugins; pretty on stdout is the default. flag is the option
// the specs came from (--reporter, or --format for mcptest report), so that
// errors name what the user typed.
func resolveOutputs(reg *plugin.Registry, flag string, specs []string, output string) ([]report.Output, error) {
	if len(specs) == 0 {
		specs = []string{"pretty"}
	}
	var outs []report.Output
	stdoutTaken := false
	for _, spec := range specs {
		name, path, _ := strings.Cut(spec, "=")
		if name == "" {
			return nil, fmt.Errorf("%s %q: the format name is empty", flag, spec)
		}
		if path == "" && output != "" && len(specs) == 1 {
			path = output
		}
		if path == "" {
			if stdoutTaken {
				return nil, fmt.Errorf("%s %s: only one reporter can write to stdout; give the others a file with NAME=PATH", flag, name)
			}
			stdoutTaken = true
		}
		f, err := reg.Resolve(sdk.KindReporter, name)
		if err != nil {
			if errors.Is(err, plugin.ErrUnknownKey) {
				return nil, fmt.Errorf("%s: %w", flag, err)
			}
			return nil, err
		}
		outs = append(outs, report.Output{Format: name, Plugin: f, Path: path})
	}
	if output != "" && len(specs) > 1 {
		return nil, fmt.Errorf("--output works with a single reporter; with several, write %s NAME=PATH", flag)
	}
	return outs, nil
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// isCI reports whether the environment says this is a CI job (CI=true or
// CI=1, as the common CI systems set it).
func isCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v == "true" || v == "1"
}
