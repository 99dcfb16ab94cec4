package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/shlex"

	"github.com/mcptest/mcptest/core/compliance"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/probe"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// complianceFlags are the flags of `mcptest compliance run`.
type complianceFlags struct {
	pluginFlags
	server        string
	baseline      string
	writeBaseline string
	reporters     []string
	output        string
	revision      string
	checks        []string
	timeout       time.Duration
	jobs          int
	noToolCalls   bool
	strict        bool
	failOnStale   bool
	headers       []string
	headerEnvs    []string
	bearerEnv     string
	serverBearer  string
	env           []string
	noColor       bool
	runID         string
}

func cmdCompliance(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		complianceUsage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "run":
		return complianceRun(ctx, args[1:], stdout, stderr)
	case "list":
		return complianceList(stdout)
	}
	fmt.Fprintf(stderr, "mcptest compliance: unknown subcommand %q\n", args[0])
	complianceUsage(stderr)
	return 2
}

func complianceUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: mcptest compliance run --server CMD|URL [flags]   run every compliance check against a server")
	fmt.Fprintln(w, "       mcptest compliance list                          list the checks")
	fmt.Fprintln(w, "\nExit codes: 0 no MUST check failed (warnings and known failures allowed), 1 a MUST check failed")
	fmt.Fprintln(w, "(or a warning with --strict, a stale baseline entry with --fail-on-stale), 2 a check or the server could not run.")
}

// complianceList prints the checks as a table.
func complianceList(stdout io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tAPPLIES TO\tNEEDS\tTITLE")
	for _, c := range compliance.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Severity, compliance.Scope(c), compliance.NeedsText(c), c.Title)
	}
	_ = tw.Flush()
	return 0
}

func complianceRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f complianceFlags
	fs := newFlagSet("compliance run", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest compliance run --server CMD|URL [flags]")
		fs.PrintDefaults()
	}
	fs.StringVar(&f.server, "server", "", "the server: a command line (split with POSIX shell rules) or an http(s):// URL")
	fs.StringVar(&f.baseline, "baseline", "", "YAML or JSON file of known failures: they pass, and listed checks that pass are flagged stale")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "write this run's failures and warnings as a baseline file")
	fs.StringArrayVar(&f.reporters, "reporter", nil, "report format, optionally with a file: NAME or NAME=PATH (repeatable; default pretty)")
	fs.StringVarP(&f.output, "output", "o", "", "write the single reporter's output to this file instead of stdout")
	fs.StringVar(&f.revision, "protocol-version", probe.LatestLegacy, "protocol revision to speak (2024-11-05 ... 2025-11-25, or 2026-07-28)")
	fs.StringSliceVar(&f.checks, "check", nil, "run only these check ids (repeatable or comma-separated)")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "how long to wait for any one answer")
	fs.IntVarP(&f.jobs, "jobs", "j", 4, "checks run at once: over stdio each on its own server process; over HTTP only well-formed probes overlap, the others run alone")
	fs.BoolVar(&f.noToolCalls, "no-tool-calls", false, "never call the server's tools (T04, T05, T07 and U03 become not applicable)")
	fs.BoolVar(&f.strict, "strict", false, "SHOULD warnings fail the run too (exit 1)")
	fs.BoolVar(&f.failOnStale, "fail-on-stale", false, "baseline entries whose check now passes fail the run (exit 1)")
	fs.StringArrayVar(&f.headers, "header", nil, "HTTP header sent with every request, as NAME=VALUE or 'Name: value' (repeatable; values are redacted from reports)")
	fs.StringArrayVar(&f.headerEnvs, "header-env", nil, "send this header with the value of an environment variable: NAME=VAR (repeatable)")
	fs.StringVar(&f.serverBearer, "server-auth-bearer-env", "", "send 'Authorization: Bearer <token>' with the token read from this environment variable")
	fs.StringVar(&f.bearerEnv, "bearer-env", "", "the same as --server-auth-bearer-env (kept as an alias)")
	fs.StringArrayVar(&f.env, "env", nil, "environment variable for a stdio server, as KEY=VALUE (repeatable)")
	fs.BoolVar(&f.noColor, "no-color", false, "never colour the output")
	fs.StringVar(&f.runID, "run-id", "", "id recorded in the report (default: generated)")
	f.pluginFlags.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcptest compliance run: unexpected argument %q (give the server with --server)\n", fs.Arg(0))
		return 2
	}
	target, secrets, err := f.target()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest compliance run: %v\n", err)
		return 2
	}
	if _, err := compliance.Selected(f.checks); err != nil {
		fmt.Fprintf(stderr, "mcptest compliance run: --check: %v\n", err)
		return 2
	}
	var bl *compliance.Baseline
	if f.baseline != "" {
		if bl, err = compliance.LoadBaseline(f.baseline); err != nil {
			fmt.Fprintf(stderr, "mcptest compliance run: %v\n", err)
			return 2
		}
	}
	reg := plugin.NewRegistry(f.sources())
	warnProblems(reg, stderr)
	outputs, err := resolveOutputs(reg, "--reporter", f.reporters, f.output)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest compliance run: %v\n", err)
		return 2
	}
	host := plugin.NewHost(f.launcher(stderr), plugin.HostOptions{CallTimeout: f.pluginFlags.timeout})
	defer host.Close()
	needed := make([]*plugin.Found, 0, len(outputs))
	for _, o := range outputs {
		needed = append(needed, o.Plugin)
	}
	if err := host.Start(ctx, needed); err != nil {
		fmt.Fprintf(stderr, "mcptest compliance run: %v\n", err)
		return 2
	}
	redactor := redact.New(secrets...)
	emitter, err := report.Open(ctx, host, outputs, terminals(stdout, stderr, f.noColor), redactor)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest compliance run: %v\n", err)
		return 2
	}
	return f.execute(ctx, target, bl, emitter, redactor, stderr)
}

// execute runs the checks, streaming them to the reporters, and returns
// the exit code.
func (f *complianceFlags) execute(ctx context.Context, target compliance.Target, bl *compliance.Baseline, emitter *report.Emitter, redactor *redact.Redactor, stderr io.Writer) int {
	label := target.Label()
	selected, _ := compliance.Selected(f.checks)
	runID := f.runID
	if runID == "" {
		runID = time.Now().UTC().Format("20060102T150405Z") + "-compliance"
	}
	started := time.Now().UTC()
	emitter.Emit(ctx, rpt.Event{Type: rpt.EventRunStarted, Time: started, Total: len(selected), Run: &rpt.Run{
		SchemaVersion: rpt.SchemaVersion, RunID: runID, Tool: rpt.ToolInfo{Name: "mcptest", Version: version},
		StartedAt: started, Suites: []string{},
	}})
	rep, err := compliance.Run(ctx, target, compliance.Options{
		Revision: f.revision, Timeout: f.timeout, Jobs: f.jobs, Only: f.checks, NoToolCalls: f.noToolCalls,
		ClientVersion: version, Redact: redactor,
		OnStart: func(c *compliance.Check) {
			t := (&compliance.Result{Check: c, Revision: f.revision}).Test(label)
			h := t.Header()
			emitter.Emit(ctx, rpt.Event{Type: rpt.EventTestStarted, Time: time.Now().UTC(), Test: &h})
		},
		OnResult: func(r *compliance.Result) {
			bl.Apply([]*compliance.Result{r})
			t := r.Test(label)
			if f.strict {
				compliance.Strict(&t)
			}
			emitter.Emit(ctx, rpt.Event{Type: rpt.EventTestFinished, Time: time.Now().UTC(), Test: &t})
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "mcptest compliance run: %v\n", err)
		_ = emitter.Close(ctx)
		return 2
	}
	if rep.Err != nil {
		fmt.Fprintf(stderr, "mcptest compliance run: the server could not be initialised: %v\n", rep.Err)
	} else if rep.Revision != rep.Requested {
		fmt.Fprintf(stderr, "mcptest compliance run: asked for protocol %s; the server chose %s, and the checks judge it against %s\n",
			rep.Requested, rep.Revision, rep.Revision)
	}
	verdict := compliance.Count(rep.Results)
	for _, r := range rep.Results {
		if r.Stale {
			fmt.Fprintf(stderr, "mcptest compliance run: warning: baseline %s lists %s, which passes now; remove the entry\n", bl.Path, r.Check.ID)
		}
	}
	code := verdict.ExitCode(f.strict, f.failOnStale)
	run := rep.RunReport()
	if f.strict {
		for i := range run.Tests {
			compliance.Strict(&run.Tests[i])
		}
		run.Summarize()
	}
	run.RunID = runID
	run.Tool = rpt.ToolInfo{Name: "mcptest", Version: version}
	if f.baseline != "" {
		run.Suites = []string{f.baseline}
	}
	run.Errors = append(run.Errors, emitter.Errors()...)
	if len(emitter.Errors()) > 0 {
		code = 2
	}
	run.ExitCode = code
	emitter.Emit(ctx, rpt.Event{Type: rpt.EventRunFinished, Time: time.Now().UTC(), Run: run})
	known := len(emitter.Errors())
	for _, e := range emitter.Close(ctx)[known:] {
		fmt.Fprintf(stderr, "mcptest: reporter %s failed: %s\n", e.Name, e.Message)
		code = 2
	}
	if f.writeBaseline != "" {
		if err := writeBaselineFile(f.writeBaseline, label, rep.Results); err != nil {
			fmt.Fprintf(stderr, "mcptest compliance run: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "mcptest compliance run: wrote baseline %s\n", f.writeBaseline)
	}
	fmt.Fprintf(stderr, "compliance: %s (exit %d)\n", verdict, code)
	return code
}

func writeBaselineFile(path, server string, results []*compliance.Result) error {
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	if err := compliance.WriteBaseline(file, server, results); err != nil {
		file.Close()
		return err
	}
	if err := file.Close(); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}

// target builds the server target from --server, --header, --bearer-env
// and --env; secrets are the values to redact from every report.
func (f *complianceFlags) target() (compliance.Target, []string, error) {
	var t compliance.Target
	spec := strings.TrimSpace(f.server)
	if spec == "" {
		return t, nil, fmt.Errorf("--server is required: a command line or an http(s):// URL")
	}
	var secrets []string
	if strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://") {
		t.URL = spec
		t.Header = http.Header{}
		for _, h := range f.headers {
			name, value, err := complianceHeader(h)
			if err != nil {
				return t, nil, err
			}
			t.Header.Add(name, value)
			secrets = append(secrets, value)
		}
		for _, spec := range f.headerEnvs {
			name, env, err := splitHeader("--header-env", spec)
			if err != nil {
				return t, nil, err
			}
			v, err := secretEnv("--header-env "+name, env)
			if err != nil {
				return t, nil, err
			}
			t.Header.Add(name, v)
			secrets = append(secrets, v)
		}
		bearer := f.serverBearer
		if f.bearerEnv != "" {
			if bearer != "" && bearer != f.bearerEnv {
				return t, nil, fmt.Errorf("--bearer-env %s and --server-auth-bearer-env %s name different variables; give one", f.bearerEnv, bearer)
			}
			bearer = f.bearerEnv
		}
		if bearer != "" {
			token := os.Getenv(bearer)
			if token == "" {
				return t, nil, fmt.Errorf("--server-auth-bearer-env: the environment variable %s is empty or unset", bearer)
			}
			if len(token) < redact.MinLen {
				return t, nil, fmt.Errorf("--server-auth-bearer-env: the secret in $%s is %d byte(s) long; secrets must be at least %d bytes, or they could not be masked in reports",
					bearer, len(token), redact.MinLen)
			}
			t.Header.Set("Authorization", "Bearer "+token)
			secrets = append(secrets, token)
		}
		if len(f.env) > 0 {
			return t, nil, fmt.Errorf("--env applies to stdio servers; %s is a URL", spec)
		}
		return t, secrets, nil
	}
	if len(f.headers) > 0 || len(f.headerEnvs) > 0 || f.bearerEnv != "" || f.serverBearer != "" {
		return t, nil, fmt.Errorf("--header, --header-env and --server-auth-bearer-env apply to HTTP servers; %q is a command", spec)
	}
	argv, err := shlex.Split(spec)
	if err != nil {
		return t, nil, fmt.Errorf("--server: split the command: %w", err)
	}
	if len(argv) == 0 {
		return t, nil, fmt.Errorf("--server: the command is empty")
	}
	for _, kv := range f.env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return t, nil, fmt.Errorf("--env %q: write it as KEY=VALUE", kv)
		}
	}
	t.Command, t.Env = argv, f.env
	return t, nil, nil
}

// complianceHeader reads a --header of compliance run in either form:
// NAME=VALUE, as every other command takes it, or the older 'Name: value'
// (kept as an alias). The form whose separator comes first wins, so a
// value may hold the other separator.
func complianceHeader(h string) (string, string, error) {
	colon, eq := strings.Index(h, ":"), strings.Index(h, "=")
	if colon >= 0 && (eq < 0 || colon < eq) {
		name, value, _ := strings.Cut(h, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if name == "" {
			return "", "", fmt.Errorf("--header %q: write it as NAME=VALUE or 'Name: value'", h)
		}
		return name, value, nil
	}
	return splitHeader("--header", h)
}
