package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/audit"
)

// auditFlags are the flags of `mcptest audit`.
type auditFlags struct {
	serverFlags
	toolkitOutput
	toolCallFlags
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
	f.toolCallFlags.register(fs, "audit", 10*time.Second, "write a starter suite that passes against the server to this file")
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
	tr, tools, code := startToolCalls(ctx, "audit", &f.toolkitOutput, target, &f.toolCallFlags, stdout, stderr)
	if tr == nil {
		return code
	}
	defer tr.Close()
	tr.reps.start(ctx, tr.run, len(tools))
	rep, err := audit.Run(ctx, tr.caller, tools, audit.Options{Timeout: f.timeout, Jobs: f.jobs, IncludeDestructive: f.includeDestructive, Tools: f.tools})
	if err != nil && ctx.Err() == nil {
		return tr.fail(ctx, err)
	}
	if rep == nil {
		return tr.finish(ctx, false, nil)
	}
	tr.run.Tests = rep.Tests(tr.red, tr.red.String(tr.caller.StderrTail(20)))
	tr.reps.tests(ctx, tr.run.Tests)
	code = tr.finish(ctx, false, rep.Table)
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
