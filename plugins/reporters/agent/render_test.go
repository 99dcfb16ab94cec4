package main

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// TestSampleLayout renders the shared sample run: the verdict line with
// every non-zero count, then only the failed and errored tests, each with
// its assertion, values and a repro command that quotes the id.
func TestSampleLayout(t *testing.T) {
	out := rendertest.Primary(t, newPlugin(), "agent", reporttest.Events())
	lines := strings.Split(out, "\n")
	run := reporttest.Sample()
	c := count(run)
	want := "VERDICT " + verdict(run, c)
	if !strings.HasPrefix(lines[0], want+" 3/8 passed, 2 failed, 1 errored, 1 warned, 1 skipped exit=") {
		t.Errorf("first line %q", lines[0])
	}
	for _, s := range []string{
		"FAIL suites/smoke.yml::tools::echo fails",
		"  assert: result.content[0].text exact: echo should say goodbye\n  expected: \"goodbye\"\n  actual: \"hello\"\n",
		"  repro: mcptest run suites/smoke.yml --id $'suites/smoke.yml::tools::echo fails <b>&\"quoted\"</b> \\x1b[2J\\x07 naïve ✓'\n",
		"ERROR suites/smoke.yml::tools::server crashed\n",
		"RUNERROR plugin crashed",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	for _, s := range []string{"echo passes", "not reached", "J01", "\x1b"} {
		if strings.Contains(out, s) {
			t.Errorf("output has %q, which a passed, skipped test or an escape should not add:\n%s", s, out)
		}
	}
}

// TestVerdicts follows the exit code, and counts deferred tests.
func TestVerdicts(t *testing.T) {
	cases := []struct {
		exit     int
		statuses []report.Status
		want     string
	}{
		{0, []report.Status{report.StatusPassed}, "VERDICT pass 1/1 passed exit=0"},
		{0, []report.Status{report.StatusPassed, report.StatusWarned}, "VERDICT warn 1/2 passed, 1 warned exit=0"},
		{0, []report.Status{report.StatusPassed, statusDeferred}, "VERDICT warn 1/2 passed, 1 deferred exit=0"},
		{1, []report.Status{report.StatusFailed, report.StatusPassed}, "VERDICT fail 1/2 passed, 1 failed exit=1"},
		{2, []report.Status{report.StatusErrored}, "VERDICT error 0/1 passed, 1 errored exit=2"},
		{130, []report.Status{report.StatusPassed, report.StatusSkipped}, "VERDICT error 1/2 passed, 1 skipped exit=130"},
		{0, nil, "VERDICT pass 0/0 passed exit=0"},
	}
	for _, tc := range cases {
		run := &report.Run{ExitCode: tc.exit}
		for i, s := range tc.statuses {
			run.Tests = append(run.Tests, report.Test{ID: "t" + string(rune('a'+i)), Status: s})
		}
		out := rendertest.Primary(t, newPlugin(), "agent", rendertest.Finished(run))
		first, _, _ := strings.Cut(out, "\n")
		if first != tc.want {
			t.Errorf("exit %d %v: %q, want %q", tc.exit, tc.statuses, first, tc.want)
		}
	}
}

// TestTrimsAndCaps cuts long values and lists at most maxListed tests.
func TestTrimsAndCaps(t *testing.T) {
	run := &report.Run{ExitCode: 1}
	long := strings.Repeat("x", 5000)
	for i := 0; i < maxListed+3; i++ {
		run.Tests = append(run.Tests, report.Test{ID: "s.yml::tools::t" + strings.Repeat("i", i), File: "s.yml", Status: report.StatusFailed,
			Assertions: []report.Assertion{{Target: "result", Matcher: "exact", Status: report.StatusFailed, Message: long + "\nline2"}}})
	}
	out := rendertest.Primary(t, newPlugin(), "agent", rendertest.Finished(run))
	if strings.Count(out, "\nFAIL ") != maxListed || !strings.Contains(out, "MORE 3 failed or errored tests not listed") {
		t.Errorf("not capped at %d", maxListed)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 400 {
			t.Fatalf("line of %d runes: %.80s…", len([]rune(l)), l)
		}
	}
}

// TestNeedsRunFinished refuses a stream without the final report.
func TestNeedsRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), "agent")
}

// TestShellQuote round-trips through the quoting rules of a POSIX shell.
func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"suite.yml":       "suite.yml",
		"a b":             "'a b'",
		"it's":            `'it'\''s'`,
		"x::tools::$(rm)": "'x::tools::$(rm)'",
		"a\x1b[2Jb'\\":    `$'a\x1b[2Jb\'\\'`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
