package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/audit"
	"github.com/mcptest/mcptest/internal/redact"
)

// auditFlags are the flags of `mcptest audit`.
type auditFlags struct {
	serverFlags
	toolkitOutput
	timeout            time.Duration
	jobs               int
	includeDestructive bool
	tools              []string
	writeSuite         string
	shard              string
}

func cmdAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f auditFlags
	fs := newFlagSet("audit", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest audit --server CMD|URL [flags]")
		fmt.Fprintln(stderr, "Calls every tool once with valid arguments from its input schema and classifies it as healthy, crashed or timed out.")
		fs.PrintDefaults()
	}
	f.serverFlags.register(fs)
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "how long each tool call may take")
	fs.IntVarP(&f.jobs, "jobs", "j", 4, "tool calls in flight at once")
	fs.BoolVar(&f.includeDestructive, "include-destructive", false, "also call tools whose annotations do not rule out destructive effects")
	fs.StringArrayVar(&f.tools, "tool", nil, "audit only this tool (repeatable)")
	fs.StringVar(&f.writeSuite, "write-suite", "", "write a starter suite that passes against the server to this file")
	fs.StringVar(&f.shard, "shard", "", "only the tools of shard i of n (i/n), by a stable hash of each tool's name; `report merge` joins the shards")
	f.toolkitOutput.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcptest audit: unexpected argument %q (give the server with --server)\n", fs.Arg(0))
		return 2
	}
	if f.timeout <= 0 {
		fmt.Fprintln(stderr, "mcptest audit: --timeout must be positive")
		return 2
	}
	target, err := f.target()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest audit: %v\n", err)
		return 2
	}
	red := redact.New(target.Secrets...)
	reps, err := f.open(ctx, "audit", red, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest audit: %v\n", err)
		return 2
	}
	started := time.Now()
	run := toolkit.NewRun("audit", f.runID, version, started)
	caller := &toolkit.Caller{Target: target, Timeout: f.timeout}
	defer caller.Close()
	sess, err := caller.Start(ctx)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest audit: %s\n", red.String(err.Error()))
		return 2
	}
	tools, err := toolkit.ListTools(ctx, sess)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest audit: %s\n", red.String(err.Error()))
		return 2
	}
	tools, run.Shard, err = toolShard(f.shard, tools)
	if err != nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest audit: %v\n", err)
		return 2
	}
	reps.start(ctx, run, len(tools))
	rep, err := audit.Run(ctx, caller, tools, audit.Options{Timeout: f.timeout, Jobs: f.jobs, IncludeDestructive: f.includeDestructive, Tools: f.tools})
	if err != nil && ctx.Err() == nil {
		reps.abort(ctx)
		fmt.Fprintf(stderr, "mcptest audit: %s\n", red.String(err.Error()))
		return 2
	}
	if rep != nil {
		run.Tests = rep.Tests(red, red.String(caller.StderrTail(20)))
		reps.tests(ctx, run.Tests)
	}
	toolkit.Finish(run, caller.Server, time.Now())
	code := reps.finish(ctx, run)
	if rep == nil {
		return code
	}
	var table strings.Builder
	rep.Table(&table)
	fmt.Fprint(stderr, red.String(table.String()))
	if f.writeSuite != "" {
		tests, note := rep.StarterSuite()
		header := fmt.Sprintf("Starter suite written by `mcptest audit` (mcptest %s): one test per tool that\nanswered, expecting the answer it gave. Run it with: mcptest run %s", version, f.writeSuite)
		if note != "" {
			header += "\n" + note
		}
		if err := writeSuiteFile(f.writeSuite, target, header, tests, false); err != nil {
			fmt.Fprintf(stderr, "mcptest audit: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "mcptest audit: wrote %s (%d tests)\n", f.writeSuite, len(tests))
	}
	return code
}

// writeSuiteFile writes a suite beside its final name and renames it into
// place, so an earlier file survives a failed write.
func writeSuiteFile(path string, target toolkit.Target, header string, tests []toolkit.SuiteTest, perTest bool) error {
	var buf bytes.Buffer
	if err := toolkit.WriteSuite(&buf, target, header, tests, perTest); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
