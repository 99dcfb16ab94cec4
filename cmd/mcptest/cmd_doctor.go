package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/doctor"
	"github.com/mcptest/mcptest/core/plugin"
)

func cmdDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var pf pluginFlags
	var problemsOnly bool
	fs := newFlagSet("doctor", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest doctor [SUITE.yml...] [flags]")
		fmt.Fprintln(stderr, "Checks what the suites need: server commands on PATH, Node for npm servers, URL servers reachable (TLS),")
		fmt.Fprintln(stderr, "auth and header variables set, cassettes present, plugins valid and trusted. One line per finding with its fix;")
		fmt.Fprintln(stderr, "exit 1 when something would break a run.")
		fs.PrintDefaults()
	}
	fs.BoolVarP(&problemsOnly, "problems", "q", false, "print only warnings and failures")
	pf.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	var findings []doctor.Finding
	env := doctor.DefaultEnv()
	for _, path := range fs.Args() {
		s, err := config.Load(path)
		if err != nil {
			findings = append(findings, doctor.Finding{Level: doctor.Fail, Subject: "suite " + path, Message: firstLine(err.Error()), Fix: "mcptest validate " + path + " shows every error with its line"})
			continue
		}
		findings = append(findings, doctor.Finding{Level: doctor.OK, Subject: "suite " + path, Message: "loads", Fix: ""})
		findings = append(findings, doctor.Suite(ctx, s, env)...)
	}
	findings = append(findings, pluginFindings(ctx, pf, stderr)...)
	var ok, warn, fail int
	for _, f := range findings {
		switch f.Level {
		case doctor.OK:
			ok++
			if problemsOnly {
				continue
			}
		case doctor.Warn:
			warn++
		case doctor.Fail:
			fail++
		}
		fmt.Fprintln(stdout, f.String())
	}
	fmt.Fprintf(stdout, "doctor: %d ok, %d warnings, %d failures\n", ok, warn, fail)
	if ctx.Err() != nil {
		return exitInterrupted
	}
	if fail > 0 {
		return 1
	}
	return 0
}

// pluginFindings checks the plugin directories: manifests that cannot be
// used, key conflicts, plugins refused by the trust rules, and plugins
// that do not start or do not match their manifest.
func pluginFindings(ctx context.Context, pf pluginFlags, stderr io.Writer) []doctor.Finding {
	reg := plugin.NewRegistry(pf.sources())
	var out []doctor.Finding
	for _, p := range reg.Problems {
		out = append(out, doctor.Finding{Level: doctor.Fail, Subject: "plugin at " + p.Path, Message: p.Err.Error(), Fix: "reinstall it with mcptest plugins install, or remove the folder"})
	}
	for _, c := range reg.Conflicts() {
		var who []string
		for _, p := range c.Plugins {
			who = append(who, p.Label()+" ("+p.Dir+")")
		}
		out = append(out, doctor.Finding{Level: doctor.Fail, Subject: c.Kind + " " + c.Key, Message: "offered by several plugins in one directory: " + strings.Join(who, ", "), Fix: "remove all but one"})
	}
	host := plugin.NewHost(pf.launcher(stderr), plugin.HostOptions{CallTimeout: pf.timeout})
	defer host.Close()
	for _, f := range reg.Plugins {
		subj := "plugin " + f.Label()
		if f.Untrusted != nil {
			out = append(out, doctor.Finding{Level: doctor.Fail, Subject: subj, Message: "refused: " + plugin.TrustState(f), Fix: "fix the folder's owner and permissions, or pass --trust-plugin-dir " + f.Dir})
			continue
		}
		if _, err := host.Description(ctx, f); err != nil {
			out = append(out, doctor.Finding{Level: doctor.Fail, Subject: subj, Message: firstLine(err.Error()), Fix: "reinstall it with mcptest plugins install (checksum and manifest are rewritten)"})
			continue
		}
		out = append(out, doctor.Finding{Level: doctor.OK, Subject: subj, Message: "starts and matches its manifest (" + f.Dir + ")"})
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
