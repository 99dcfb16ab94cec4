package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

func itoa(n int) string { return strconv.Itoa(n) }

func TestSampleShape(t *testing.T) {
	out := renderTAP(t, reporttest.Events())
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "TAP version 14" || lines[len(lines)-1] != "1..8" {
		t.Errorf("first and last lines: %q, %q", lines[0], lines[len(lines)-1])
	}
	for _, want := range []string{
		"ok 1 - echo passes\n",
		"not ok 2 - echo fails <b>&\"quoted\"</b>  naïve ✓\n  ---\n  message: echo should say goodbye\n  severity: fail\n  at: suites/smoke.yml:15\n  expected: goodbye\n  actual: hello\n",
		"ok 3 - scored\n",
		"not ok 4 - server crashed\n  ---\n  message: server \"broken\" exited (exit status 3)\n  severity: error\n",
		"  stderr: |-\n    panic: crash requested\n    goroutine 1 [running]:\n  ...\n",
		"ok 5 - not reached # SKIP run interrupted before the test started\n",
		// The SHOULD warning passes, with the broken requirement in its
		// diagnostic.
		"ok 8 - T06 tool names follow the naming rules\n  ---\n  message: Tool names use 1-128 characters of [A-Za-z0-9_.-]\n  severity: warning\n",
		"# run error: plugin chaos@0.0.1: plugin crashed: the plugin process exited during the run\n",
		"# 3 passed, 2 failed, 1 warned, 1 errored, 1 skipped (8 tests)\n1..8\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"\x1b", "\x07"} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds the control character %q", bad)
		}
	}
}

// TestTestsOnlyInFinalReport covers re-rendering: tests the final report
// holds but no event announced are written once, numbered after the rest.
func TestTestsOnlyInFinalReport(t *testing.T) {
	a := report.Test{ID: "a", Name: "a", Status: report.StatusPassed}
	b := report.Test{ID: "b", Name: "b", Status: report.StatusPassed}
	run := &report.Run{Tests: []report.Test{a, b}}
	out := renderTAP(t, []report.Event{{Type: report.EventTestFinished, Test: &a}, {Type: report.EventRunFinished, Run: run}})
	want := "TAP version 14\nok 1 - a\nok 2 - b\n# 0 passed, 0 failed, 0 errored, 0 skipped (0 tests)\n1..2\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestWithoutRunFinished(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "tap"}, reporttest.Events()[:3])
	if got.Err == nil || !strings.Contains(got.Err.Error(), "run_finished") {
		t.Errorf("err = %v, want the missing run_finished error", got.Err)
	}
	if !strings.HasPrefix(got.Primary, "TAP version 14\nok 1 - echo passes\n") {
		t.Errorf("streamed output lost: %q", got.Primary)
	}
}

func TestEscapeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{`a # b`, `a \# b`},
		{`back\slash`, `back\\slash`},
		{`\#`, `\\\#`},
		{"new\nline\ttab", "new line tab"},
		{"\x1b[2Jwiped\x07", "wiped"},
		{"  padded  ", "padded"},
	} {
		if got := escapeText(tc.in); got != tc.want {
			t.Errorf("escapeText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := escapeText("x {"); got != "x \uff5b" {
		t.Errorf("a trailing brace gave %q", got)
	}
}

// TestYAMLValuesReadBack: every string, however it looks, reads back as
// the same string; long and multi-line values are literal block scalars,
// never a quoted line of JSON.
func TestYAMLValuesReadBack(t *testing.T) {
	long := strings.Repeat(`{"key":"value with \"quotes\""} `, 10) + "end"
	values := []string{`say "hi"`, "a\\b", "true", "No", "null", "1", "0x1f", "a: b", "- x", "#c", "", "ünï ✓ 😀", "bom\ufeff", long, "two\nlines"}
	var pairs []kv
	for i, v := range values {
		pairs = append(pairs, kv{"v" + itoa(i), v})
	}
	block := yamlBlock(pairs)
	if !strings.HasPrefix(block, "  ---\n") || !strings.HasSuffix(block, "  ...\n") {
		t.Fatalf("framing: %q", block)
	}
	body := strings.TrimSuffix(strings.TrimPrefix(block, "  ---\n"), "  ...\n")
	var got map[string]any
	if err := yaml.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("%v\n%s", err, block)
	}
	for i, v := range values {
		if got["v"+itoa(i)] != v {
			t.Errorf("value %d = %#v, want %q", i, got["v"+itoa(i)], v)
		}
	}
	if !strings.Contains(block, "  v13: |-\n    {\"key\"") || !strings.Contains(block, "  v14: |-\n    two\n    lines\n") {
		t.Errorf("long and multi-line values are not block scalars:\n%s", block)
	}
	// Keys a plugin chose stay inline, however long or broken.
	longKey := strings.Repeat("k", 100)
	keys := yamlBlock([]kv{{longKey, 1}, {"two\nlines", 2}})
	if !strings.Contains(keys, "  "+longKey+": 1\n") || !strings.Contains(keys, "  two lines: 2\n") {
		t.Errorf("keys:\n%s", keys)
	}
}

// TestOversizedValueIsText: a JSON value too large to decode is shown as
// the start of its text in a block, with a note, not as a quoted string.
func TestOversizedValueIsText(t *testing.T) {
	raw := json.RawMessage(`{"big":"` + strings.Repeat("x", maxValueBytes) + `"}`)
	block := yamlBlock([]kv{{"actual", raw}})
	if !strings.Contains(block, "  actual: |-\n    {\"big\":\"xxx") || !strings.Contains(block, "more bytes; the JSON report has the whole value)\n  ...\n") {
		t.Errorf("oversized value:\n%.300s\n…\n%s", block, block[len(block)-200:])
	}
}

// TestRevisionsAndLatencyComments: per-revision counts and latency
// budgets are comments before the summary.
func TestRevisionsAndLatencyComments(t *testing.T) {
	a := report.Test{ID: "a", Name: "a [2026-07-28]", Status: report.StatusPassed, ProtocolVersion: "2026-07-28"}
	run := &report.Run{
		Tests:            []report.Test{a},
		VersionSummaries: []report.VersionSummary{{ProtocolVersion: "2026-07-28", Total: 1, Passed: 1}},
		Latency:          []report.LatencySummary{{File: "s.yml", BudgetMS: 100, Tests: 1, P95MS: 250, Over: 1, Breached: true}},
	}
	out := renderTAP(t, []report.Event{{Type: report.EventRunFinished, Run: run}})
	want := "# protocol 2026-07-28: 1 passed, 0 failed, 0 errored, 0 skipped\n# latency s.yml: p95 250 ms of 100 ms over 1 tests, 1 slower: over budget\n"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks\n%s\ngot\n%s", want, out)
	}
}
