package main

import (
	"io"
	"os"
	"strconv"

	"github.com/mattn/go-isatty"

	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk"
)

// terminalOf describes f for reporters: colour only on a terminal, and
// never when NO_COLOR is set (to anything) or TERM is dumb.
func terminalOf(f *os.File, noColor bool) sdk.Terminal {
	tty := isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
	t := sdk.Terminal{IsTTY: tty}
	if tty {
		t.Width, _ = strconv.Atoi(os.Getenv("COLUMNS"))
	}
	_, noColorEnv := os.LookupEnv("NO_COLOR")
	t.Color = tty && !noColor && !noColorEnv && os.Getenv("TERM") != "dumb"
	return t
}

// terminals describes where unfiled report output goes.
func terminals(stdout, stderr io.Writer, noColor bool) report.Terminals {
	return report.Terminals{
		Stdout: stdout, Stderr: stderr,
		StdoutTerm: terminalOf(os.Stdout, noColor), StderrTerm: terminalOf(os.Stderr, noColor),
		StepSummary: os.Getenv("GITHUB_STEP_SUMMARY"),
	}
}
