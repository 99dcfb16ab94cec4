package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/lint"
	"github.com/mcptest/mcptest/internal/redact"
)

// lintFlags are the flags of `mcptest lint`.
type lintFlags struct {
	serverFlags
	toolkitOutput
	strict    bool
	listRules bool
}

func cmdLint(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f lintFlags
	fs := newFlagSet("lint", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest lint --server CMD|URL [flags]   (or mcptest lint --rules)")
		fmt.Fprintln(stderr, "Checks the server's tool, resource and prompt definitions against quality rules; calls no tool.")
		fs.PrintDefaults()
	}
	f.serverFlags.register(fs)
	fs.BoolVar(&f.strict, "strict", false, "SHOULD and MAY findings fail the run too (exit 1)")
	fs.BoolVar(&f.listRules, "rules", false, "list the rules and exit")
	f.toolkitOutput.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if f.listRules {
		for _, r := range lint.Rules() {
			fmt.Fprintf(stdout, "%-36s %-6s %s\n", r.ID, r.Level, r.Title)
		}
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcptest lint: unexpected argument %q (give the server with --server)\n", fs.Arg(0))
		return 2
	}
	target, err := f.target()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest lint: %v\n", err)
		return 2
	}
	red := redact.New(target.Secrets...)
	reps, err := f.open(ctx, "lint", red, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest lint: %v\n", err)
		return 2
	}
	started := time.Now()
	run := toolkit.NewRun("lint", f.runID, version, started)
	caller := &toolkit.Caller{Target: target, Timeout: 30 * time.Second}
	defer caller.Close()
	sess, err := caller.Start(ctx)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest lint: %s\n", red.String(err.Error()))
		return 2
	}
	listing, err := toolkit.ListAll(ctx, sess)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest lint: %s\n", red.String(err.Error()))
		return 2
	}
	res := lint.Check(listing)
	run.Tests = res.Tests(red, f.strict)
	reps.start(ctx, run, len(run.Tests))
	reps.tests(ctx, run.Tests)
	toolkit.Finish(run, caller.Server, time.Now())
	code := reps.finish(ctx, run)
	var table strings.Builder
	res.Table(&table)
	fmt.Fprint(stderr, "\n"+red.String(table.String()))
	return code
}
