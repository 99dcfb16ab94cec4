package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcptest/mcptest/core/catalog"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// captureCatalog opens the server the flags name and reads its catalog.
func captureCatalog(ctx context.Context, f *serverFlags, timeout time.Duration) (*catalog.Catalog, *redact.Redactor, error) {
	target, err := f.target()
	if err != nil {
		return nil, redact.New(), err
	}
	red := redact.New(target.Secrets...)
	sess, err := target.Open(ctx, timeout)
	if err != nil {
		return nil, red, err
	}
	defer sess.Close()
	c, err := catalog.Capture(ctx, sess, target.Label(), time.Now())
	return c, red, err
}

func cmdSnapshotCatalog(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f serverFlags
	var out string
	var timeout time.Duration
	fs := newFlagSet("snapshot-catalog", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest snapshot-catalog --server CMD|URL [-o FILE] [flags]")
		fmt.Fprintln(stderr, "Saves the server's tools, resources, resource templates and prompts as a catalog snapshot for `mcptest diff` (docs/catalog.md).")
		fs.PrintDefaults()
	}
	f.register(fs)
	fs.StringVarP(&out, "output", "o", "", "write the snapshot to this file (default: stdout)")
	fs.DurationVar(&timeout, "timeout", 30*time.Second, "how long each listing request may take")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcptest snapshot-catalog: unexpected argument %q (give the server with --server)\n", fs.Arg(0))
		return 2
	}
	c, red, err := captureCatalog(ctx, &f, timeout)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest snapshot-catalog: %s\n", red.String(err.Error()))
		return exitFor(ctx, 2)
	}
	if out == "" || out == "-" {
		b, err := c.Encode()
		if err != nil {
			fmt.Fprintf(stderr, "mcptest snapshot-catalog: %v\n", err)
			return 2
		}
		if _, err := stdout.Write(red.Bytes(b)); err != nil {
			fmt.Fprintf(stderr, "mcptest snapshot-catalog: %v\n", err)
			return 2
		}
		return 0
	}
	if err := c.WriteFile(out, red.Bytes); err != nil {
		fmt.Fprintf(stderr, "mcptest snapshot-catalog: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "mcptest snapshot-catalog: wrote %s (%d tools, %d resources, %d resource templates, %d prompts)\n",
		out, len(c.Tools), len(c.Resources), len(c.Templates), len(c.Prompts))
	return 0
}

// exitFor is 130 when the context was interrupted, else code.
func exitFor(ctx context.Context, code int) int {
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return code
}

// diffFlags are the flags of `mcptest diff`.
type diffFlags struct {
	serverFlags
	toolkitOutput
	changelog string
	timeout   time.Duration
}

func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f diffFlags
	fs := newFlagSet("diff", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest diff OLD NEW [flags]   or   mcptest diff OLD --server CMD|URL [flags]")
		fmt.Fprintln(stderr, "Compares two catalogs (snapshots from snapshot-catalog, cassettes, or a live server) and classifies every change as breaking or not.")
		fmt.Fprintln(stderr, "Exit 1 when a change is breaking (docs/catalog.md lists the rules).")
		fs.PrintDefaults()
	}
	f.serverFlags.register(fs)
	fs.StringVar(&f.changelog, "changelog", "", "also write the changes as a markdown changelog section to this file ('-': stdout)")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "with --server: how long each listing request may take")
	f.toolkitOutput.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	want := 2
	if f.server != "" {
		want = 1
	}
	if fs.NArg() != want {
		fmt.Fprintf(stderr, "mcptest diff: want %d catalog file(s), got %d; usage: mcptest diff OLD NEW, or mcptest diff OLD --server CMD|URL\n", want, fs.NArg())
		return 2
	}
	old, err := catalog.Load(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mcptest diff: %v\n", err)
		return 2
	}
	red := redact.New()
	var new *catalog.Catalog
	if f.server != "" {
		if new, red, err = captureCatalog(ctx, &f.serverFlags, f.timeout); err != nil {
			fmt.Fprintf(stderr, "mcptest diff: %s\n", red.String(err.Error()))
			return exitFor(ctx, 2)
		}
	} else if new, err = catalog.Load(fs.Arg(1)); err != nil {
		fmt.Fprintf(stderr, "mcptest diff: %v\n", err)
		return 2
	}
	res := catalog.Diff(old, new)
	if f.changelog != "" {
		text := red.String(res.Changelog(old.Source(), new.Source()))
		if err := writeText(f.changelog, text, stdout); err != nil {
			fmt.Fprintf(stderr, "mcptest diff: --changelog: %v\n", err)
			return 2
		}
	}
	return emitToolkitRun(ctx, &f.toolkitOutput, "diff", red, catalogServer(new), res.Tests("new"), stdout, stderr)
}

// catalogServer describes the newer catalog's server for the report.
func catalogServer(c *catalog.Catalog) rpt.Server {
	return rpt.Server{Name: "new", Transport: "catalog", ProtocolVersion: c.ProtocolVersion, ServerName: c.Server.Name, ServerVersion: c.Server.Version}
}

// emitToolkitRun reports finished tests through the reporters and
// returns the exit code.
func emitToolkitRun(ctx context.Context, o *toolkitOutput, cmd string, red *redact.Redactor, server rpt.Server, tests []rpt.Test, stdout, stderr io.Writer) int {
	reps, err := o.open(ctx, cmd, red, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest %s: %v\n", cmd, err)
		return 2
	}
	run := newToolkitRun(cmd, o.runID)
	reps.start(ctx, run, len(tests))
	run.Tests = tests
	reps.tests(ctx, run.Tests)
	finishToolkitRun(run, server)
	return reps.finish(ctx, run)
}

// writeText writes text to path, or to stdout for "-".
func writeText(path, text string, stdout io.Writer) error {
	if path == "-" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
