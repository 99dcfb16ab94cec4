package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/shlex"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/fuzz"
	"github.com/mcptest/mcptest/internal/redact"
)

// fuzzFlags are the flags of `mcptest fuzz`.
type fuzzFlags struct {
	serverFlags
	toolkitOutput
	seed               uint64
	runs               int
	timeout            time.Duration
	jobs               int
	includeDestructive bool
	tools              []string
	writeSuite         string
	shard              string
}

func cmdFuzz(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f fuzzFlags
	fs := newFlagSet("fuzz", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest fuzz --server CMD|URL [flags]")
		fmt.Fprintln(stderr, "Sends every tool invalid and edge inputs built from its schema; each crash class is a finding.")
		fs.PrintDefaults()
	}
	f.serverFlags.register(fs)
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the case choice and random mutations: the same seed and --runs give the same cases")
	fs.IntVar(&f.runs, "runs", 50, "cases per tool (the structural cases always run; 0 runs the whole catalogue)")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "how long each tool call may take")
	fs.IntVarP(&f.jobs, "jobs", "j", 4, "tool calls in flight at once")
	fs.BoolVar(&f.includeDestructive, "include-destructive", false, "also fuzz tools whose annotations do not rule out destructive effects")
	fs.StringArrayVar(&f.tools, "tool", nil, "fuzz only this tool (repeatable)")
	fs.StringVar(&f.writeSuite, "write-suite", "", "write a regression test per finding to this suite file")
	fs.StringVar(&f.shard, "shard", "", "only the tools of shard i of n (i/n), by a stable hash of each tool's name; `report merge` joins the shards")
	f.toolkitOutput.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcptest fuzz: unexpected argument %q (give the server with --server)\n", fs.Arg(0))
		return 2
	}
	if f.timeout <= 0 || f.runs < 0 {
		fmt.Fprintln(stderr, "mcptest fuzz: --timeout must be positive and --runs at least 0")
		return 2
	}
	target, err := f.target()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest fuzz: %v\n", err)
		return 2
	}
	red := redact.New(target.Secrets...)
	reps, err := f.open(ctx, "fuzz", red, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest fuzz: %v\n", err)
		return 2
	}
	started := time.Now()
	run := toolkit.NewRun("fuzz", f.runID, version, started)
	caller := &toolkit.Caller{Target: target, Timeout: f.timeout}
	defer caller.Close()
	sess, err := caller.Start(ctx)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest fuzz: %s\n", red.String(err.Error()))
		return 2
	}
	tools, err := toolkit.ListTools(ctx, sess)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest fuzz: %s\n", red.String(err.Error()))
		return 2
	}
	tools, run.Shard, err = toolShard(f.shard, tools)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest fuzz: %v\n", err)
		return 2
	}
	// A tool that kills the server costs up to MaxKills deaths plus the
	// repeats of the calls that were in flight with it; the budget grows
	// with the tools so a server where every tool dies still gets through.
	caller.MaxRestarts = (fuzz.MaxKills + 2*max(f.jobs, 1)) * (len(tools) + 1)
	reps.start(ctx, run, len(tools))
	rep, err := fuzz.Run(ctx, caller, tools, fuzz.Options{Seed: f.seed, Runs: f.runs, Timeout: f.timeout, Jobs: f.jobs,
		IncludeDestructive: f.includeDestructive, Tools: f.tools})
	if err != nil && ctx.Err() == nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest fuzz: %s\n", red.String(err.Error()))
		return 2
	}
	if rep != nil {
		run.Tests = rep.Tests(red, f.repro)
		reps.tests(ctx, run.Tests)
	}
	toolkit.Finish(run, caller.Server, time.Now())
	code := reps.finish(ctx, run)
	if rep == nil {
		return code
	}
	var table strings.Builder
	rep.Table(&table)
	fmt.Fprint(stderr, "\n"+red.String(table.String()))
	if f.writeSuite != "" {
		tests, left := rep.RegressionSuite(f.timeout)
		header := fmt.Sprintf("Regression tests written by `mcptest fuzz` (mcptest %s, seed %d, %d runs per tool):\none per finding, with the smallest arguments that reproduced it. Each fails while\nthe tool crashes on that input and passes once it answers with a result, an\nisError result or -32602. Run it with: mcptest run %s", version, f.seed, f.runs, f.writeSuite)
		if len(left) > 0 {
			header += "\nLeft out, as a suite always sends an arguments object (rerun mcptest fuzz to check them):\n  " + strings.Join(left, "\n  ")
		}
		if err := writeSuiteFile(f.writeSuite, target, header, tests, true); err != nil {
			fmt.Fprintf(stderr, "mcptest fuzz: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "mcptest fuzz: wrote %s (%d tests)\n", f.writeSuite, len(tests))
	}
	return code
}

// repro is the command line that fuzzes one tool again with the same
// cases.
func (f *fuzzFlags) repro(tool string) string {
	q := func(s string) string {
		if parts, err := shlex.Split(s); err == nil && len(parts) == 1 && parts[0] == s && !strings.ContainsAny(s, "'\"") {
			return s
		}
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return fmt.Sprintf("mcptest fuzz --server %s --tool %s --seed %d --runs %d", q(f.server), q(tool), f.seed, f.runs)
}
