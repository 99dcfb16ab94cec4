package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// toolRun is what audit, fuzz, lint and coverage share once their flags
// are read: the reporters, the run report being built, and a session with
// the server. Every failure path of those commands goes through fail, so
// the reporters are closed and the message masked the same way.
type toolRun struct {
	cmd    string
	red    *redact.Redactor
	reps   *reports
	run    *rpt.Run
	caller *toolkit.Caller
	sess   *session.Session
	stderr io.Writer
}

// startToolRun opens the reporters (before the server starts, so a wrong
// --reporter has no side effect), begins the run report and starts the
// server session. secrets are masked beyond the target's own. On failure
// it has printed the reason and returns nil and exit code 2; otherwise
// the caller must Close the toolRun.
func startToolRun(ctx context.Context, cmd string, out *toolkitOutput, target toolkit.Target, secrets []string, timeout time.Duration, stdout, stderr io.Writer) (*toolRun, int) {
	red := redact.New(append(append([]string(nil), target.Secrets...), secrets...)...)
	reps, err := out.open(ctx, cmd, red, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest %s: %v\n", cmd, err)
		return nil, 2
	}
	r := &toolRun{cmd: cmd, red: red, reps: reps, stderr: stderr,
		run:    toolkit.NewRun(cmd, out.runID, version, time.Now()),
		caller: &toolkit.Caller{Target: target, Timeout: timeout}}
	if r.sess, err = r.caller.Start(ctx); err != nil {
		code := r.fail(ctx, err)
		r.Close()
		return nil, code
	}
	return r, 0
}

// startToolCalls is startToolRun followed by the listing of the tools of
// the --shard given, for the commands that call every tool (audit,
// fuzz). On failure it has closed everything and returns a nil toolRun
// and the exit code.
func startToolCalls(ctx context.Context, cmd string, out *toolkitOutput, target toolkit.Target, f *toolCallFlags, stdout, stderr io.Writer) (*toolRun, []toolkit.Tool, int) {
	tr, code := startToolRun(ctx, cmd, out, target, nil, f.timeout, stdout, stderr)
	if tr == nil {
		return nil, nil, code
	}
	tools, code, ok := tr.tools(ctx, f.shard)
	if !ok {
		tr.Close()
		return nil, nil, code
	}
	return tr, tools, 0
}

// Close stops the server.
func (r *toolRun) Close() { r.caller.Close() }

// fail closes the reporters of a run that cannot go on and prints why,
// masked; it returns exit code 2.
func (r *toolRun) fail(ctx context.Context, err error) int {
	r.reps.abort(ctx)
	fmt.Fprintf(r.stderr, "mcptest %s: %s\n", r.cmd, r.red.String(err.Error()))
	return 2
}

// tools lists the server's tools and keeps those of the --shard given
// (all when shard is ""); ok is false after fail.
func (r *toolRun) tools(ctx context.Context, shard string) (tools []toolkit.Tool, code int, ok bool) {
	tools, err := toolkit.ListTools(ctx, r.sess)
	if err == nil {
		tools, r.run.Shard, err = toolShard(shard, tools)
	}
	if err != nil {
		return nil, r.fail(ctx, err), false
	}
	return tools, 0, true
}

// listing lists tools, resources and prompts; ok is false after fail.
func (r *toolRun) listing(ctx context.Context) (*toolkit.Listing, int, bool) {
	l, err := toolkit.ListAll(ctx, r.sess)
	if err != nil {
		return nil, r.fail(ctx, err), false
	}
	return l, 0, true
}

// report announces the run and streams its tests, for commands that have
// every test before they report any.
func (r *toolRun) report(ctx context.Context, tests []rpt.Test) {
	r.run.Tests = tests
	r.reps.start(ctx, r.run, len(tests))
	r.reps.tests(ctx, tests)
}

// finish completes the run report, closes the reporters and, when table
// is not nil, prints the command's table (masked) to stderr after a blank
// line when blank is set. It returns the exit code.
func (r *toolRun) finish(ctx context.Context, blank bool, table func(*strings.Builder)) int {
	toolkit.Finish(r.run, r.caller.Server, time.Now())
	code := r.reps.finish(ctx, r.run)
	if table != nil {
		var b strings.Builder
		table(&b)
		if blank {
			fmt.Fprint(r.stderr, "\n")
		}
		fmt.Fprint(r.stderr, r.red.String(b.String()))
	}
	return code
}

// toolCallFlags are the flags of the commands that call every tool
// (audit, fuzz): which tools, how many calls at once, how long each may
// take, the shard, and the suite to write.
type toolCallFlags struct {
	timeout            time.Duration
	jobs               int
	includeDestructive bool
	tools              []string
	writeSuite         string
	shard              string
}

// register adds the flags; verb is the command's verb in the help
// ("audit", "fuzz"), timeout the default per call, writeSuite what
// --write-suite writes.
func (f *toolCallFlags) register(fs *pflag.FlagSet, verb string, timeout time.Duration, writeSuite string) {
	fs.DurationVar(&f.timeout, "timeout", timeout, "how long each tool call may take")
	fs.IntVarP(&f.jobs, "jobs", "j", 4, "tool calls in flight at once")
	fs.BoolVar(&f.includeDestructive, "include-destructive", false, "also "+verb+" tools whose annotations do not rule out destructive effects")
	fs.StringArrayVar(&f.tools, "tool", nil, verb+" only this tool (repeatable)")
	fs.StringVar(&f.writeSuite, "write-suite", "", writeSuite)
	fs.StringVar(&f.shard, "shard", "", "only the tools of shard i of n (i/n), by a stable hash of each tool's name; `report merge` joins the shards")
}
