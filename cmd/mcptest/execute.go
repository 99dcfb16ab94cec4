package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/score"
	"github.com/mcptest/mcptest/internal/redact"
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
}

// execute starts the plugins the plan and its outputs need, has the
// matchers vet their arguments, opens the reporters, runs the plan and
// closes the reports. It returns the exit code.
func (e execution) execute(ctx context.Context, stdout, stderr io.Writer) int {
	host := plugin.NewHost(e.plugins.launcher(stderr), plugin.HostOptions{CallTimeout: e.plugins.timeout})
	defer host.Close()
	needed := append([]*plugin.Found(nil), e.plan.Matchers...)
	for _, o := range e.outputs {
		needed = append(needed, o.Plugin)
	}
	if err := host.Start(ctx, needed); err != nil {
		fmt.Fprintf(stderr, "mcptest %s: %v\n", e.cmd, err)
		return score.ExitError
	}
	if err := run.CheckArguments(ctx, host, e.plan); err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return score.ExitError
	}
	redactor := redact.New(suiteSecrets(e.plan)...)
	emitter, err := report.Open(ctx, host, e.outputs, terminals(stdout, stderr, e.noColor), redactor)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest %s: %v\n", e.cmd, err)
		return score.ExitError
	}
	opts := e.opts
	opts.Host, opts.Events, opts.Redact, opts.ToolVersion = host, emitter, redactor, version
	result := run.Execute(ctx, e.plan, opts)
	if e.finish != nil {
		e.finish(result)
	}
	// Reporter failures so far belong in the report itself.
	result.Errors = append(result.Errors, emitter.Errors()...)
	result.ExitCode = score.ExitCode(result)
	run.Finish(ctx, emitter, result)
	code := result.ExitCode
	known := len(emitter.Errors())
	for _, re := range emitter.Close(ctx)[known:] {
		// A reporter that failed while writing the final report can only be
		// told on stderr.
		fmt.Fprintf(stderr, "mcptest: reporter %s failed: %s\n", re.Name, re.Message)
		if re.StderrTail != "" {
			fmt.Fprintf(stderr, "  last stderr lines:\n%s\n", indent(re.StderrTail, "    "))
		}
		code = score.ExitError
	}
	return code
}
