package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/mcptest/mcptest/core/toolkit/watch"
)

// clearScreen moves the cursor home and clears a terminal.
const clearScreen = "\x1b[H\x1b[2J"

// cmdWatch runs suites, then re-runs the suites a change affects: the
// suite, what it imports, or a server program or file its commands name.
func cmdWatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("watch", stderr)
	settle := fs.Duration("settle", 200*time.Millisecond, "wait this long after the last change before re-running")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest watch [--settle D] SUITE.yml... [-- RUN FLAGS]")
		fmt.Fprintln(stderr, "Runs the suites, then re-runs each suite whose file, imports or server program/files change, until Ctrl-C; flags after -- go to every run (docs/toolkit-2.md).")
		fs.PrintDefaults()
	}
	var runArgs []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, runArgs = args[:i], args[i+1:]
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "mcptest watch: no suite given; usage: mcptest watch [--settle D] SUITE.yml... [-- RUN FLAGS]")
		return 2
	}
	for _, s := range fs.Args() {
		if st, err := os.Stat(s); err != nil || !st.Mode().IsRegular() {
			fmt.Fprintf(stderr, "mcptest watch: %s is not a suite file\n", s)
			return 2
		}
	}
	clear := ""
	if f, ok := stdout.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		clear = clearScreen
	}
	err := watch.Watch(ctx, watch.Options{
		Suites: fs.Args(), Out: stderr, Clear: clear, Settle: *settle,
		Run: func(ctx context.Context, suites []string) int {
			return cmdRun(ctx, append(slices.Clone(runArgs), suites...), stdout, stderr)
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "mcptest watch: %v\n", err)
		return 2
	}
	return 0
}
