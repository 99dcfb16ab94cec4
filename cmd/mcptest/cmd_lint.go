package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mcptest/mcptest/core/toolkit/lint"
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
	tr, code := startToolRun(ctx, "lint", &f.toolkitOutput, target, nil, 30*time.Second, stdout, stderr)
	if tr == nil {
		return code
	}
	defer tr.Close()
	listing, code, ok := tr.listing(ctx)
	if !ok {
		return code
	}
	res := lint.Check(listing)
	tr.report(ctx, res.Tests(tr.red, f.strict))
	code = tr.finish(ctx, true, res.Table)
	return code
}
