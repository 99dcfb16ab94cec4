package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/internal/safefile"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return reportMerge(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "trend" {
		return reportTrend(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "verify" {
		return reportVerify(args[1:], stdout, stderr)
	}
	var pf pluginFlags
	var formats []string
	var output string
	var noColor, exitCode bool
	fs := newFlagSet("report", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest report [flags] RUN.json            re-render a saved run, running nothing")
		fmt.Fprintln(stderr, "       mcptest report merge [--allow-partial] -o ALL.json A.json B.json...   join shard reports")
		fmt.Fprintln(stderr, "       mcptest report trend [--history DIR] [-o trend.html] RUN.json...   pass rate, duration, p95 and flaky tests over runs")
		fmt.Fprintln(stderr, "       mcptest report RUN.json --format evidence -o PACK.json   grades, coverage and the report's digest, signed with $MCPTEST_EVIDENCE_KEY")
		fmt.Fprintln(stderr, "       mcptest report verify [--report RUN.json] [--public-key KEY] PACK.json   check an evidence pack")
		fs.PrintDefaults()
	}
	fs.StringArrayVarP(&formats, "format", "f", nil, "report format, optionally with a file: NAME or NAME=PATH (repeatable; default pretty)")
	fs.StringVarP(&output, "output", "o", "", "write the single format's output to this file instead of stdout")
	fs.BoolVar(&noColor, "no-color", false, "never colour the output")
	fs.BoolVar(&exitCode, "exit-code", false, "exit with the rendered run's exit code (0 passed, 1 failed, 2 errored, 130 interrupted) once the reports are written")
	pf.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	wantPack, packPath, formats, err := takeEvidence(formats, output)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report: %v\n", err)
		return 2
	}
	if wantPack {
		output = ""
	}
	raw, err := safefile.ReadFile(fs.Arg(0), report.MaxReportSize)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report: %v: %v\n", report.ErrInvalidReport, err)
		return 2
	}
	run, err := report.ParseRun(raw, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report: %v\n", err)
		return 2
	}
	if wantPack {
		if code := writeEvidence(run, raw, fs.Arg(0), packPath, stdout, stderr); code != 0 {
			return code
		}
		if len(formats) == 0 {
			if exitCode {
				return run.ExitCode
			}
			return 0
		}
	}
	reg := plugin.NewRegistry(pf.sources())
	warnProblems(reg, stderr)
	outputs, err := resolveOutputs(reg, "--format", formats, output)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report: %v\n", err)
		return 2
	}
	host := plugin.NewHost(pf.launcher(stderr), plugin.HostOptions{CallTimeout: pf.timeout})
	defer host.Close()
	emitter, err := report.Open(ctx, host, outputs, terminals(stdout, stderr, noColor), nil)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report: %v\n", err)
		return 2
	}
	report.Replay(ctx, emitter, run)
	code := 0
	for _, e := range emitter.Close(ctx) {
		fmt.Fprintf(stderr, "mcptest report: reporter %s failed: %s\n", e.Name, e.Message)
		if e.StderrTail != "" {
			fmt.Fprintf(stderr, "  last stderr lines:\n%s\n", indent(e.StderrTail, "    "))
		}
		code = 2
	}
	if exitCode && code == 0 {
		return run.ExitCode
	}
	return code
}

func reportMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("report merge", stderr)
	output := fs.StringP("output", "o", "", "file to write the merged report to (default stdout)")
	allowPartial := fs.Bool("allow-partial", false, "merge even when shards of the run are missing, marking the report partial")
	exitCode := fs.Bool("exit-code", false, "exit with the merged run's exit code (0 passed, 1 failed, 2 errored) once it is written")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: mcptest report merge -o ALL.json A.json B.json...")
		return 2
	}
	runs := make([]*rpt.Run, 0, fs.NArg())
	for _, path := range fs.Args() {
		r, err := report.ReadRun(path)
		if err != nil {
			fmt.Fprintf(stderr, "mcptest report merge: %v\n", err)
			return 2
		}
		runs = append(runs, r)
	}
	merged, err := report.Merge(runs, report.MergeOptions{Names: fs.Args(), AllowPartial: *allowPartial})
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report merge: %v\n", err)
		return 2
	}
	b, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report merge: %v\n", err)
		return 2
	}
	b = append(b, '\n')
	// done is the exit code of a merge that wrote its report.
	done := 0
	if *exitCode {
		done = merged.ExitCode
	}
	if *output == "" {
		_, _ = stdout.Write(b)
		if merged.Partial != nil {
			fmt.Fprintf(stderr, "mcptest report merge: the merged report is %s\n", merged.Partial.Text())
		}
		return done
	}
	if err := os.MkdirAll(filepath.Dir(*output), 0o755); err != nil {
		fmt.Fprintf(stderr, "mcptest report merge: %v\n", err)
		return 2
	}
	if err := os.WriteFile(*output, b, 0o644); err != nil {
		fmt.Fprintf(stderr, "mcptest report merge: %v\n", err)
		return 2
	}
	note := ""
	if merged.Partial != nil {
		note = " (" + merged.Partial.Text() + ")"
	}
	fmt.Fprintf(stderr, "merged %d reports (%d tests) into %s%s\n", len(runs), len(merged.Tests), *output, note)
	return done
}
