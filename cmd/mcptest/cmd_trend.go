package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/mcptest/mcptest/core/report"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// reportTrend is `mcptest report trend`: pass rate, duration and p95
// latency over saved runs, and the tests that flip between passing and
// failing.
func reportTrend(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("report trend", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest report trend [flags] RUN.json...     (or --history DIR)")
		fmt.Fprintln(stderr, "  pass rate, duration and p95 latency over saved runs, and the flaky tests")
		fs.PrintDefaults()
	}
	history := fs.String("history", "", "read every *.json run report in this folder (mcptest run --history DIR saves them there)")
	output := fs.StringP("output", "o", "", "also write a self-contained HTML page with the charts to this file")
	window := fs.Int("window", report.DefaultFlakyWindow, "look for flaky tests in this many of the latest runs")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *window < 2 {
		fmt.Fprintf(stderr, "mcptest report trend: --window %d: a flaky test needs at least 2 runs\n", *window)
		return 2
	}
	var runs []*rpt.Run
	var files []string
	if *history != "" {
		r, f, err := report.ReadHistory(*history)
		if err != nil {
			fmt.Fprintf(stderr, "mcptest report trend: %v\n", err)
			return 2
		}
		runs, files = r, f
	}
	for _, path := range fs.Args() {
		r, err := report.ReadRun(path)
		if err != nil {
			fmt.Fprintf(stderr, "mcptest report trend: %v\n", err)
			return 2
		}
		runs, files = append(runs, r), append(files, path)
	}
	if len(runs) == 0 {
		fs.Usage()
		return 2
	}
	tr, err := report.NewTrend(runs, files, *window)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report trend: %v\n", err)
		return 2
	}
	if err := writeTrendText(stdout, tr); err != nil {
		fmt.Fprintf(stderr, "mcptest report trend: %v\n", err)
		return 2
	}
	if *output != "" {
		if err := writeTrendHTML(*output, tr); err != nil {
			fmt.Fprintf(stderr, "mcptest report trend: %v\n", err)
			return 2
		}
	}
	return 0
}

// writeTrendText prints the trend as a table and the flaky tests.
func writeTrendText(w io.Writer, tr *report.Trend) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "started (UTC)\ttests\tpassed\tfailed\terrored\tskipped\tpass rate\tduration\tp95")
	for _, p := range tr.Points {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", p.StartedAt.UTC().Format("2006-01-02 15:04:05"),
			p.Tests, p.Passed, p.Failed, p.Errored, p.Skipped, rate(p.PassRate), msText(p.DurationMS), msText(p.P95MS))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	n := min(tr.Window, len(tr.Points))
	if len(tr.Flaky) == 0 {
		fmt.Fprintf(&b, "\nno flaky test in the last %d run(s)\n", n)
	} else {
		fmt.Fprintf(&b, "\nflaky tests (passed and failed in the last %d runs):\n", n)
		for _, f := range tr.Flaky {
			fmt.Fprintf(&b, "  %s: %d passed, %d failed, %d flip(s), last %s\n", flakyName(f), f.Passed, f.Failed, f.Flips, f.Last)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// flakyName is a flaky test's id, with its revision when it has one.
func flakyName(f report.FlakyTest) string {
	if f.ProtocolVersion != "" {
		return f.ID + " @ " + f.ProtocolVersion
	}
	return f.ID
}

func rate(r float64) string {
	if math.IsNaN(r) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", r)
}

func msText(ms float64) string {
	if ms >= 1000 {
		return fmt.Sprintf("%.2f s", ms/1000)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// writeTrendHTML writes the page beside its destination and renames it
// there once complete, so a failed write never leaves half a page.
func writeTrendHTML(path string, tr *report.Trend) error {
	page, err := trendPage(tr)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, page, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
