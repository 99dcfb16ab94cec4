package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// renderSample streams the sample run through the plugin over gRPC.
func renderSample(t *testing.T, key string) plugintest.Rendered {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: key}, reporttest.Events())
	if out.Err != nil {
		t.Fatalf("render: %v", out.Err)
	}
	return out
}

func TestRenderSample(t *testing.T) {
	for _, key := range []string{"md", "markdown"} {
		t.Run(key, func(t *testing.T) {
			out := renderSample(t, key)
			if out.StepSummary != out.Primary {
				t.Error("the step summary differs from the primary document")
			}
			if out.Progress != "" {
				t.Errorf("unexpected progress output: %q", out.Progress)
			}
			checkSample(t, out.Primary)
		})
	}
}

// checkSample checks the structure and content of the rendered sample.
func checkSample(t *testing.T, doc string) {
	run := reporttest.Sample()
	md := checkDocument(t, doc)

	if !strings.HasPrefix(doc, "## ⚠️ mcptest: errored\n") {
		t.Errorf("heading: %q", doc[:strings.Index(doc, "\n")])
	}
	if len(md.tables) != 4 {
		t.Fatalf("want 4 tables (counts, not passed, rollups, matcher rates), got %d", len(md.tables))
	}
	counts := md.tables[0]
	if got := strings.Join(counts.rows[0], ","); got != "3,2,1,1,1,8,1.50 s" {
		t.Errorf("counts row = %s", got)
	}

	notPassed := md.tables[1]
	if len(notPassed.rows) != 5 {
		t.Fatalf("not-passed table has %d rows, want 5", len(notPassed.rows))
	}
	var statuses []string
	for _, r := range notPassed.rows {
		statuses = append(statuses, r[0])
	}
	if got := strings.Join(statuses, ","); got != "❌ failed,❌ failed,⚠️ errored,🟡 warned,⏭️ skipped" {
		t.Errorf("row order by status: %s", got)
	}
	hostile := notPassed.rows[0]
	if got, want := cellText(hostile[1]), oneLine(run.Tests[1].Name); got != want {
		t.Errorf("hostile name reads %q, want %q", got, want)
	}
	if got := codeSpanText(t, hostile[2]); got != "suites/smoke.yml:15" {
		t.Errorf("location = %q", got)
	}
	for _, want := range []string{"echo should say goodbye", "expected `\"goodbye\"`, got `\"hello\"`"} {
		if !strings.Contains(hostile[3], want) {
			t.Errorf("reason %q lacks %q", hostile[3], want)
		}
	}
	if !strings.Contains(notPassed.rows[3][1], "(SHOULD)") {
		t.Errorf("compliance severity missing: %q", notPassed.rows[3][1])
	}
	if got := cellText(notPassed.rows[2][3]); got != `server_exited: server "broken" exited (exit status 3)` {
		t.Errorf("errored reason = %q", got)
	}

	// Raw HTML: only the reporter's own <details> and <summary>, balanced.
	opens, closes := 0, 0
	for _, tag := range md.html {
		switch tag {
		case "details", "summary":
			opens++
		case "/details", "/summary":
			closes++
		default:
			t.Errorf("unexpected raw HTML <%s>", tag)
		}
	}
	if opens != 8 || closes != 8 {
		t.Errorf("want 4 details blocks with summaries, got %d opening and %d closing tags", opens, closes)
	}

	for _, want := range []string{
		"<summary>❌ failed: echo fails &lt;b&gt;&amp;&quot;quoted&quot;&lt;/b&gt;  naïve ✓ — suites/smoke.yml:15</summary>",
		"### Metric rollups",
		"⚠️ **plugin** `chaos@0.0.1`: plugin crashed: the plugin process exited during the run",
		"⚠️ **server** `broken`: server \"broken\" exited (exit status 3)",
		"**Error:** server\\_exited:",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document lacks %q", want)
		}
	}
	blocks := strings.Join(md.code, "\n---\n")
	for _, want := range []string{
		"expected: \"goodbye\"\nactual:   \"hello\"\ndiff:     [-goodbye-]{+hello+}",
		`errors: [{"instance_path":"/isError"`,
		"expected: -32601\nactual:   -32600",
		"demo: warning <b>&\"quoted\"</b>  naïve ✓",
		"panic: crash requested\ngoroutine 1 [running]:",
		"ERROR: chaos: exiting on purpose",
	} {
		if !strings.Contains(blocks, want) {
			t.Errorf("code blocks lack %q", want)
		}
	}
	if strings.Contains(doc, "not reached</summary>") {
		t.Error("a skipped test got a details block")
	}
}

func TestRollups(t *testing.T) {
	run := reporttest.Sample()
	got := rollups(run)
	want := []metricRollup{{Name: "score", Sum: 0.75, Count: 1}, {Name: "contains", Assertion: true, Sum: 1, Count: 1}, {Name: "regex", Assertion: true, Sum: 0, Count: 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rollups = %+v, want %+v", got, want)
	}
	rates := matcherRates(run)
	if fmt.Sprint(rates) != "[{contains 1 0 0} {exact 1 2 0} {regex 0 2 0} {schema 0 1 0}]" {
		t.Errorf("matcher rates = %v", rates)
	}
	md := checkDocument(t, document(run, fullDoc))
	if r := md.tables[2].rows[0]; strings.Join(r, ",") != "`score` (test score),0.750,1" {
		t.Errorf("score rollup row = %v", r)
	}
	if r := md.tables[3].rows[1]; strings.Join(r, ",") != "`exact`,1,2,0,33%" {
		t.Errorf("exact rate row = %v", r)
	}

	// The derived metrics' rollups come from the report, first.
	run.MetricRollups = []report.MetricRollup{{Name: "quality", Mean: 2.0 / 3, Count: 3}}
	md = checkDocument(t, document(run, fullDoc))
	if r := md.tables[2].rows[0]; strings.Join(r, ",") != "`quality` (derived metric),0.667,3" {
		t.Errorf("derived rollup row = %v", r)
	}
	if r := md.tables[2].rows[1]; strings.Join(r, ",") != "`score` (test score),0.750,1" {
		t.Errorf("score rollup row after the derived ones = %v", r)
	}
	run.MetricRollups = nil

	for i := range run.Tests {
		run.Tests[i].Score = nil
		for j := range run.Tests[i].Assertions {
			run.Tests[i].Assertions[j].Score = nil
		}
	}
	if doc := document(run, fullDoc); strings.Contains(doc, "Metric rollups") {
		t.Error("a run without scores got a rollup table")
	}
}

func TestAllPassed(t *testing.T) {
	run := &report.Run{Tests: []report.Test{{ID: "a", Name: "a", File: "s.yml", Status: report.StatusPassed}}, DurationMS: 10}
	run.Summarize()
	doc := document(run, fullDoc)
	md := checkDocument(t, doc)
	if !strings.HasPrefix(doc, "## ✅ mcptest: passed\n") || len(md.tables) != 1 || strings.Contains(doc, "<details>") {
		t.Errorf("unexpected document for a passing run:\n%s", doc)
	}
}

func TestStepSummaryFitsLimit(t *testing.T) {
	run := reporttest.Sample()
	big := strings.Repeat("x", 900) + "\n"
	for i := range 400 {
		t1 := run.Tests[1]
		t1.Name = fmt.Sprintf("failing test %d", i)
		t1.Stderr = strings.Repeat(big, 30)
		run.Tests = append(run.Tests, t1)
	}
	run.Summarize()
	full := document(run, fullDoc)
	for _, limit := range []int{len(full), 200_000, 20_000, 3_000, 100} {
		got := stepSummary(run, full, limit)
		if len(got) > limit && limit >= 1000 {
			t.Errorf("limit %d: step summary has %d bytes", limit, len(got))
		}
		if limit == len(full) {
			if got != full {
				t.Error("a document that fits was changed")
			}
			continue
		}
		checkDocument(t, got)
		if !strings.Contains(got, "step summary limit") || strings.Contains(got, "<details>") {
			t.Errorf("limit %d: shortened summary lacks its note or kept details", limit)
		}
		if !strings.HasPrefix(got, "## ⚠️ mcptest: errored") {
			t.Errorf("limit %d: heading lost", limit)
		}
	}
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), "md")
}

func TestDescribe(t *testing.T) {
	d := newPlugin().Describe()
	if d.Name != "markdown" || d.Version != "0.1.0" || len(d.Components) != 1 ||
		strings.Join(d.Components[0].Keys, ",") != "markdown,md" {
		t.Errorf("describe = %+v", d)
	}
}
