package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mcptest/mcptest/core/catalog/drift"
	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

func cmdDrift(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "capture":
			return cmdDriftCapture(ctx, args[1:], stderr)
		case "check":
			return cmdDriftCheck(ctx, args[1:], stdout, stderr)
		case "-h", "--help", "help":
			driftUsage(stderr)
			return 0
		}
	}
	driftUsage(stderr)
	return 2
}

func driftUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: mcptest drift capture SPEC -o STATE")
	fmt.Fprintln(w, "       mcptest drift check --baseline STATE (--current STATE | --spec SPEC) [flags]")
	fmt.Fprintln(w, "A state is a server's catalog plus the masked answers of the canary calls its spec names;")
	fmt.Fprintln(w, "check fails (exit 1) on any schema change or a canary that answers differently (docs/catalog.md).")
}

// captureState starts the spec's server and captures its state.
func captureState(ctx context.Context, spec *drift.Spec) (*drift.State, *redact.Redactor, error) {
	target, err := toolkit.ParseServer(spec.Server)
	if err != nil {
		return nil, redact.New(), err
	}
	target.ClientVersion, target.Env = version, spec.Env
	if spec.BearerTokenEnv != "" {
		v, err := secretEnv("bearer_token_env", spec.BearerTokenEnv)
		if err != nil {
			return nil, redact.New(), err
		}
		target.BearerToken, target.BearerEnv = v, spec.BearerTokenEnv
		target.Secrets = append(target.Secrets, v)
	}
	red := redact.New(target.Secrets...)
	sess, err := target.Open(ctx, spec.Timeout)
	if err != nil {
		return nil, red, err
	}
	defer sess.Close()
	st, err := drift.Capture(ctx, sess, spec, target.Label(), time.Now())
	return st, red, err
}

func cmdDriftCapture(ctx context.Context, args []string, stderr io.Writer) int {
	var out string
	fs := newFlagSet("drift capture", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest drift capture SPEC -o STATE")
		fmt.Fprintln(stderr, "Starts the spec's server, saves its catalog and the masked answers of its canary calls.")
		fs.PrintDefaults()
	}
	fs.StringVarP(&out, "output", "o", "", "write the state to this file (required)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 || out == "" {
		fmt.Fprintln(stderr, "mcptest drift capture: usage: mcptest drift capture SPEC -o STATE")
		return 2
	}
	spec, err := drift.LoadSpec(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mcptest drift capture: %v\n", err)
		return 2
	}
	st, red, err := captureState(ctx, spec)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest drift capture: %s\n", red.String(err.Error()))
		return exitFor(ctx, 2)
	}
	if err := st.WriteFile(out, red.Bytes); err != nil {
		fmt.Fprintf(stderr, "mcptest drift capture: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "mcptest drift capture: wrote %s (%d tools, %d canaries)\n", out, len(st.Catalog.Tools), len(st.Canaries))
	return 0
}

// driftCheckFlags are the flags of `mcptest drift check`.
type driftCheckFlags struct {
	toolkitOutput
	baseline, current, spec string
	allowNonBreaking        bool
}

func cmdDriftCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f driftCheckFlags
	fs := newFlagSet("drift check", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest drift check --baseline STATE (--current STATE | --spec SPEC) [flags]")
		fmt.Fprintln(stderr, "Compares a baseline state with a current one (a saved state, or captured now from the spec's server).")
		fs.PrintDefaults()
	}
	fs.StringVar(&f.baseline, "baseline", "", "the state captured earlier (required)")
	fs.StringVar(&f.current, "current", "", "a state captured later")
	fs.StringVar(&f.spec, "spec", "", "capture the current state now from this spec's server")
	fs.BoolVar(&f.allowNonBreaking, "allow-non-breaking", false, "pass non-breaking schema changes (new tools, descriptions...) instead of failing them")
	f.toolkitOutput.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 || f.baseline == "" || (f.current == "") == (f.spec == "") {
		fmt.Fprintln(stderr, "mcptest drift check: usage: mcptest drift check --baseline STATE (--current STATE | --spec SPEC); give exactly one of --current and --spec")
		return 2
	}
	base, err := drift.LoadState(f.baseline)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest drift check: %v\n", err)
		return 2
	}
	red := redact.New()
	var cur *drift.State
	if f.current != "" {
		cur, err = drift.LoadState(f.current)
	} else {
		var spec *drift.Spec
		if spec, err = drift.LoadSpec(f.spec); err == nil {
			cur, red, err = captureState(ctx, spec)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcptest drift check: %s\n", red.String(err.Error()))
		return exitFor(ctx, 2)
	}
	tests := drift.Check(base, cur, drift.Options{AllowNonBreaking: f.allowNonBreaking})
	c := cur.Catalog
	server := rpt.Server{Name: "current", Transport: "catalog", ProtocolVersion: c.ProtocolVersion, ServerName: c.Server.Name, ServerVersion: c.Server.Version}
	return emitToolkitRun(ctx, &f.toolkitOutput, "drift", red, server, tests, stdout, stderr)
}
