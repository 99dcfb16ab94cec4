package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// toolkitOutput are the reporting flags of the toolkit commands: their
// results are a standard run report, so every reporter applies.
type toolkitOutput struct {
	pluginFlags
	reporters []string
	output    string
	noColor   bool
	runID     string
}

func (o *toolkitOutput) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&o.reporters, "reporter", nil, "report format, optionally with a file: NAME or NAME=PATH (repeatable; default pretty)")
	fs.StringVarP(&o.output, "output", "o", "", "write the single reporter's output to this file instead of stdout")
	fs.BoolVar(&o.noColor, "no-color", false, "never colour the output")
	fs.StringVar(&o.runID, "run-id", "", "id recorded in the report (default: generated)")
	o.pluginFlags.register(fs)
}

// reports streams a toolkit command's report to its reporters.
type reports struct {
	cmd     string
	host    *plugin.Host
	emitter *report.Emitter
	stderr  io.Writer
}

// open resolves and starts the reporters before the command touches the
// server, so a wrong --reporter stops it before any side effect.
func (o *toolkitOutput) open(ctx context.Context, cmd string, red *redact.Redactor, stdout, stderr io.Writer) (*reports, error) {
	reg := plugin.NewRegistry(o.sources())
	warnProblems(reg, stderr)
	outputs, err := resolveOutputs(reg, "--reporter", o.reporters, o.output)
	if err != nil {
		return nil, err
	}
	host := plugin.NewHost(o.launcher(stderr), plugin.HostOptions{CallTimeout: o.pluginFlags.timeout})
	needed := make([]*plugin.Found, 0, len(outputs))
	for _, out := range outputs {
		needed = append(needed, out.Plugin)
	}
	if err := host.Start(ctx, needed); err != nil {
		host.Close()
		return nil, err
	}
	emitter, err := report.Open(ctx, host, outputs, terminals(stdout, stderr, o.noColor), red)
	if err != nil {
		host.Close()
		return nil, err
	}
	return &reports{cmd: cmd, host: host, emitter: emitter, stderr: stderr}, nil
}

// start announces the run.
func (r *reports) start(ctx context.Context, run *rpt.Run, total int) {
	r.emitter.Emit(ctx, rpt.Event{Type: rpt.EventRunStarted, Time: time.Now().UTC(), Total: total, Run: run})
}

// tests streams finished tests.
func (r *reports) tests(ctx context.Context, tests []rpt.Test) {
	for i := range tests {
		h := tests[i].Header()
		r.emitter.Emit(ctx, rpt.Event{Type: rpt.EventTestStarted, Time: time.Now().UTC(), Test: &h})
		r.emitter.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Time: time.Now().UTC(), Test: &tests[i]})
	}
}

// finish sends the final report, closes the reporters and returns the
// exit code: the run's, or 2 when a reporter failed.
func (r *reports) finish(ctx context.Context, run *rpt.Run) int {
	defer r.host.Close()
	run.Errors = append(run.Errors, r.emitter.Errors()...)
	if len(r.emitter.Errors()) > 0 {
		run.ExitCode = 2
	}
	if ctx.Err() != nil {
		noteInterrupt(ctx, run)
	}
	r.emitter.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Time: time.Now().UTC(), Run: run})
	code := run.ExitCode
	known := len(r.emitter.Errors())
	for _, e := range r.emitter.Close(ctx)[known:] {
		fmt.Fprintf(r.stderr, "mcptest: reporter %s failed: %s\n", e.Name, e.Message)
		if code != exitInterrupted {
			code = 2
		}
	}
	return code
}

// abort closes the reporters of a command that could not run.
func (r *reports) abort(ctx context.Context) {
	_ = r.emitter.Close(ctx)
	r.host.Close()
}

// toolShard keeps the tools of shard i/n (by a stable hash of the tool's
// name, as `run --shard` hashes test ids), so a CI matrix can split an
// audit or a fuzz run and `report merge` join the shards' reports.
func toolShard(spec string, tools []toolkit.Tool) ([]toolkit.Tool, *rpt.Shard, error) {
	if spec == "" {
		return tools, nil, nil
	}
	index, total, err := plan.ParseShard(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("--shard: %w", err)
	}
	kept := tools[:0:0]
	for _, t := range tools {
		if plan.ShardOf(t.Name, total) == index {
			kept = append(kept, t)
		}
	}
	return kept, &rpt.Shard{Index: index, Total: total}, nil
}
