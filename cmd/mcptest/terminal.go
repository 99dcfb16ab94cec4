package main

import (
	"io"
	"os"
	"strconv"

	"github.com/mattn/go-isatty"

	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/sdk"
)

// terminalOf describes f for reporters.
func terminalOf(f *os.File, noColor bool) sdk.Terminal {
	tty := isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
	return describeTerminal(tty, noColor, os.Getenv)
}

// describeTerminal says what reporters may do on a destination: colour
// only on a terminal, without --no-color, and never when NO_COLOR is set
// to a non-empty value (https://no-color.org: an empty NO_COLOR is unset).
// A TERM=dumb terminal understands neither colour nor cursor movement, so
// it is described as not interactive: no live counter rewritten in place.
func describeTerminal(tty, noColor bool, getenv func(string) string) sdk.Terminal {
	if getenv("TERM") == "dumb" {
		return sdk.Terminal{}
	}
	t := sdk.Terminal{IsTTY: tty}
	if tty {
		t.Width, _ = strconv.Atoi(getenv("COLUMNS"))
	}
	t.Color = tty && !noColor && getenv("NO_COLOR") == ""
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
