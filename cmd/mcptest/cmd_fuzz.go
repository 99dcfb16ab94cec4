package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/shlex"

	"github.com/mcptest/mcptest/core/toolkit/fuzz"
)

// fuzzFlags are the flags of `mcptest fuzz`.
type fuzzFlags struct {
	serverFlags
	toolkitOutput
	seed uint64
	runs int
	toolCallFlags
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
	f.toolCallFlags.register(fs, "fuzz", 5*time.Second, "write a regression test per finding to this suite file")
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
	tr, tools, code := startToolCalls(ctx, "fuzz", &f.toolkitOutput, target, &f.toolCallFlags, stdout, stderr)
	if tr == nil {
		return code
	}
	defer tr.Close()
	// A tool that kills the server costs up to MaxKills deaths plus the
	// repeats of the calls that were in flight with it; the budget grows
	// with the tools so a server where every tool dies still gets through.
	tr.caller.MaxRestarts = (fuzz.MaxKills + 2*max(f.jobs, 1)) * (len(tools) + 1)
	tr.reps.start(ctx, tr.run, len(tools))
	rep, err := fuzz.Run(ctx, tr.caller, tools, fuzz.Options{Seed: f.seed, Runs: f.runs, Timeout: f.timeout, Jobs: f.jobs,
		IncludeDestructive: f.includeDestructive, Tools: f.tools})
	if err != nil && ctx.Err() == nil {
		return tr.fail(ctx, err)
	}
	if rep == nil {
		return tr.finish(ctx, true, nil)
	}
	tr.run.Tests = rep.Tests(tr.red, f.repro)
	tr.reps.tests(ctx, tr.run.Tests)
	code = tr.finish(ctx, true, rep.Table)
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
