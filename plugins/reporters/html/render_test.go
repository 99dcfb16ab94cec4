package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// renderRun streams run's events through the plugin over gRPC and returns
// the page; nothing may reach the other sinks.
func renderRun(t *testing.T, run *report.Run) string {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	header := *run
	header.Tests = nil
	events := []report.Event{{Type: report.EventRunStarted, Run: &header, Total: len(run.Tests)}}
	for i := range run.Tests {
		events = append(events, report.Event{Type: report.EventTestFinished, Test: &run.Tests[i]})
	}
	events = append(events, report.Event{Type: report.EventRunFinished, Run: run})
	out := plugintest.Render(t, c, plugintest.RenderStart{Key: "html"}, events)
	if out.Err != nil {
		t.Fatalf("render: %v", out.Err)
	}
	if out.Progress != "" || out.StepSummary != "" {
		t.Errorf("output outside the primary sink: %q %q", out.Progress, out.StepSummary)
	}
	return out.Primary
}

func TestSampleStructure(t *testing.T) {
	run := reporttest.Sample()
	page := renderRun(t, run)
	doc := parseHTML(t, page)

	if !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Error("page lacks its doctype")
	}
	for key, want := range map[string]string{"passed": "3", "failed": "2", "warned": "1", "errored": "1", "skipped": "1", "total": "8", "duration": "1.50 s"} {
		got := all(doc, func(n *html.Node) bool { v, _ := attr(n, "data-count"); return v == key })
		if len(got) != 1 || text(got[0]) != want {
			t.Errorf("count %s: want %s", key, want)
		}
	}
	list := tests(doc)
	if len(list) != len(run.Tests) {
		t.Fatalf("%d tests on the page, want %d", len(list), len(run.Tests))
	}
	for i, n := range list {
		st, _ := attr(n, "data-status")
		name := all(n, byClass("name"))
		if st != string(run.Tests[i].Status) || len(name) != 1 || text(name[0]) != textsafe.Clean(run.Tests[i].Name) {
			t.Errorf("test %d: status %q, name %q", i+1, st, text(name[0]))
		}
		_, open := attr(n, "open")
		if want := st == "failed" || st == "errored" || st == "warned"; open != want {
			t.Errorf("test %d (%s): open = %v", i+1, st, open)
		}
	}
	if tags, _ := attr(list[0], "data-tags"); tags != `["smoke","fast"]` {
		t.Errorf("data-tags = %s", tags)
	}

	failed := text(list[1])
	for _, want := range []string{
		"echo should say goodbye", `"goodbye"`, `"hello"`, "text@0.1.0",
		"expected boolean, got string", `"method": "tools/call"`, `"id": 1000001`,
		"demo: warning <b>&\"quoted\"</b>  naïve ✓", "→ send", "← recv",
	} {
		if !strings.Contains(failed, want) {
			t.Errorf("failed test's details lack %q", want)
		}
	}
	if del := all(list[1], byTag("del")); len(del) != 1 || text(del[0]) != "goodbye" {
		t.Error("the character diff is not marked up")
	}
	if !strings.Contains(text(list[3]), `server_exited: server "broken" exited (exit status 3)`) ||
		!strings.Contains(text(list[3]), "panic: crash requested") {
		t.Error("the errored test lacks its error or stderr")
	}
	if !strings.Contains(text(list[7]), "T06 SHOULD · 2025-11-25 server/tools") {
		t.Errorf("compliance check missing: %q", text(list[7]))
	}
	if v := all(doc, byClass("verdict")); len(v) != 1 || text(v[0]) != "errored" {
		t.Errorf("verdict of the sample")
	}
	if !strings.Contains(text(byID(t, doc, "run-errors")), "ERROR: chaos: exiting on purpose") {
		t.Error("run errors lack the plugin's stderr")
	}
	var tagNames []string
	for _, b := range all(doc, func(n *html.Node) bool { _, ok := attr(n, "data-tag"); return ok }) {
		v, _ := attr(b, "data-tag")
		tagNames = append(tagNames, v)
	}
	if strings.Join(tagNames, ",") != "fast,slow,smoke" {
		t.Errorf("tag filters = %v", tagNames)
	}
}

// evilText tries to end the data island, open a comment or inject markup.
const evilText = "</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)> \u2028 ]]>"

// hostileRun is the sample with markup in a name, a tag and a failure.
func hostileRun() *report.Run {
	run := reporttest.Sample()
	run.Tests[0].Name = evilText
	run.Tests[0].Tags = append(run.Tests[0].Tags, `"><b>tag</b>`)
	run.Tests[0].Assertions[0].Failure = json.RawMessage(`{"expected":"</pre><b>x</b>","weird key <i>":1}`)
	return run
}

func TestHostileTextIsInert(t *testing.T) {
	run := hostileRun()
	page := renderRun(t, run)
	doc := parseHTML(t, page)
	checkInert(t, doc, run)

	if strings.Contains(page, "<b>") || strings.Contains(page, "<i>") || strings.Contains(page, "<img") {
		t.Error("hostile markup reached the page unescaped")
	}
	if strings.ContainsRune(page, 0x1b) || strings.ContainsRune(page, 0x07) {
		t.Error("control characters reached the page")
	}
}

// checkInert checks that the hostile run's page has only the reporter's
// own elements and shows the hostile text as text.
func checkInert(t *testing.T, doc *html.Node, run *report.Run) {
	t.Helper()
	for _, tag := range []string{"b", "i", "img"} {
		if n := all(doc, byTag(tag)); len(n) != 0 {
			t.Errorf("%d injected <%s> elements", len(n), tag)
		}
	}
	scripts := all(doc, byTag("script"))
	if len(scripts) != 2 {
		t.Fatalf("%d script elements, want the data island and the page script", len(scripts))
	}
	if typ, _ := attr(scripts[0], "type"); typ != "application/json" {
		t.Errorf("first script has type %q", typ)
	}
	if name := all(tests(doc)[0], byClass("name")); text(name[0]) != textsafe.Clean(evilText) {
		t.Errorf("hostile name reads %q", text(name[0]))
	}
	checkIsland(t, doc, run)
}

// checkIsland checks that the embedded JSON decodes to run.
func checkIsland(t *testing.T, doc *html.Node, run *report.Run) {
	t.Helper()
	island := byID(t, doc, "report-data")
	var back report.Run
	if err := json.Unmarshal([]byte(text(island)), &back); err != nil {
		t.Fatalf("data island is not JSON: %v", err)
	}
	want, _ := json.Marshal(run)
	got, _ := json.Marshal(&back)
	if !bytes.Equal(got, want) {
		t.Errorf("data island differs from the report:\n got %s\nwant %s", got, want)
	}
}

func TestIslandRoundTrips(t *testing.T) {
	run := reporttest.Sample()
	checkIsland(t, parseHTML(t, renderRun(t, run)), run)
}

// remoteRef finds URLs with a scheme that would make a browser fetch.
var remoteRef = regexp.MustCompile(`(?i)(https?:|//[a-z0-9]|ftp:|ws:|wss:)`)

func TestNoNetworkReferences(t *testing.T) {
	page := renderRun(t, reporttest.Sample())
	doc := parseHTML(t, page)
	for _, n := range all(doc, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			switch a.Key {
			case "src", "href", "action", "formaction", "srcset", "poster", "data", "background", "xlink:href", "ping":
				t.Errorf("<%s> has a %s attribute: %q", n.Data, a.Key, a.Val)
			}
			if a.Key == "style" {
				t.Errorf("<%s> has an inline style, which the CSP blocks", n.Data)
			}
		}
		switch n.Data {
		case "link", "img", "iframe", "object", "embed", "video", "audio", "source", "base", "frame":
			t.Errorf("page has a <%s> element", n.Data)
		}
	}
	if remoteRef.MatchString(pageCSS) || strings.Contains(pageCSS, "url(") || strings.Contains(pageCSS, "@import") {
		t.Error("the stylesheet references something outside the page")
	}
	for _, bad := range []string{"fetch(", "XMLHttpRequest", "import(", "WebSocket", "EventSource", "sendBeacon", ".src", "http"} {
		if strings.Contains(pageJS, bad) {
			t.Errorf("the script contains %q", bad)
		}
	}
	for _, s := range all(doc, byTag("script")) {
		if _, ok := attr(s, "src"); ok {
			t.Error("external script")
		}
	}
}

func TestContentSecurityPolicy(t *testing.T) {
	doc := parseHTML(t, renderRun(t, reporttest.Sample()))
	metas := all(doc, func(n *html.Node) bool {
		v, _ := attr(n, "http-equiv")
		return n.Data == "meta" && v == "Content-Security-Policy"
	})
	if len(metas) != 1 {
		t.Fatal("no Content-Security-Policy meta element")
	}
	csp, _ := attr(metas[0], "content")
	styles, scripts := all(doc, byTag("style")), all(doc, byTag("script"))
	if len(styles) != 1 || len(scripts) != 2 {
		t.Fatalf("%d styles, %d scripts", len(styles), len(scripts))
	}
	for _, want := range []string{"default-src 'none'", "style-src " + hashSource(text(styles[0])), "script-src " + hashSource(text(scripts[1]))} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("CSP allows unsafe sources: %s", csp)
	}
}

func TestManyFailuresStartCollapsed(t *testing.T) {
	run := &report.Run{}
	for i := range maxOpen + 1 {
		run.Tests = append(run.Tests, report.Test{ID: fmt.Sprint(i), Name: fmt.Sprint("t", i), Status: report.StatusFailed})
	}
	run.Summarize()
	for _, n := range tests(parseHTML(t, renderRun(t, run))) {
		if _, open := attr(n, "open"); open {
			t.Fatal("a test is expanded although there are many failures")
		}
	}
}

func TestParseDiff(t *testing.T) {
	_, parts := parseDiff("the [-dog-]{+cat+} sat{+!+}")
	if fmt.Sprint(parts) != "[{ the } {del dog} {ins cat} {  sat} {ins !}]" {
		t.Errorf("inline parts = %v", parts)
	}
	lines, _ := parseDiff("--- expected\n+++ actual\n@@ -1 +1 @@\n-a\n+b\n c")
	var classes []string
	for _, l := range lines {
		classes = append(classes, l.Class)
	}
	if strings.Join(classes, ",") != "hunk,hunk,hunk,del,add," {
		t.Errorf("line classes = %v", classes)
	}
	if l, p := parseDiff("plain [-unclosed"); l != nil || fmt.Sprint(p) != "[{ plain [-unclosed}]" {
		t.Errorf("unclosed marker: %v %v", l, p)
	}
}

func TestValues(t *testing.T) {
	if got := frameBody(json.RawMessage(`"{\"jsonrpc\":\"2.0\",\"id\":1,\"resu"`), true); got != `{"jsonrpc":"2.0","id":1,"resu…` {
		t.Errorf("truncated frame = %q", got)
	}
	if got := prettyJSON(json.RawMessage(`{"n":12345678901234567891,"s":"\u001b[2J"}`)); got != "{\n  \"n\": 12345678901234567891,\n  \"s\": \"\\u001b[2J\"\n}" {
		t.Errorf("prettyJSON = %q", got)
	}
	if got := prettyJSON(json.RawMessage("not json \x1b[2J")); got != "not json " {
		t.Errorf("prettyJSON of text = %q", got)
	}
	fields := failureFields(json.RawMessage(`{"zeta":1,"note":"n","expected":[1],"alpha":true}`), nil)
	var labels []string
	for _, f := range fields {
		labels = append(labels, f.Label+"="+f.Text)
	}
	if got := strings.Join(labels, ","); got != "expected=[\n  1\n],note=n,alpha=true,zeta=1" {
		t.Errorf("fields = %q", got)
	}
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), "html")
}

// TestRevisionsAndLatency: a run fanned out over revisions shows a table
// of them and which revision each server was started for; a suite with a
// latency budget shows its p95 against it. Runs without either show
// neither section.
func TestRevisionsAndLatency(t *testing.T) {
	run := reporttest.Sample()
	if doc := parseHTML(t, renderRun(t, run)); findID(doc, "versions") != nil || findID(doc, "latency") != nil {
		t.Fatal("a run without revisions or budgets shows their sections")
	}
	run.Servers[0].TargetVersion = "2026-07-28"
	run.VersionSummaries = []report.VersionSummary{{ProtocolVersion: "2025-11-25", Total: 2, Passed: 2}, {ProtocolVersion: "2026-07-28", Total: 2, Passed: 1, Failed: 1}}
	run.Latency = []report.LatencySummary{{File: "suites/smoke.yml", BudgetMS: 500, Tests: 4, P95MS: 812.5, Over: 1, Breached: true}}
	doc := parseHTML(t, renderRun(t, run))
	versions, latency, servers := findID(doc, "versions"), findID(doc, "latency"), findID(doc, "servers")
	if versions == nil || latency == nil {
		t.Fatal("the revisions or latency section is missing")
	}
	for _, want := range []string{"2025-11-25", "2026-07-28"} {
		if !strings.Contains(text(versions), want) {
			t.Errorf("revisions section lacks %s: %q", want, text(versions))
		}
	}
	if got := text(latency); !strings.Contains(got, "suites/smoke.yml") || !strings.Contains(got, "500 ms") || !strings.Contains(got, "812") {
		t.Errorf("latency section: %q", got)
	}
	if !strings.Contains(text(servers), "at 2026-07-28") {
		t.Errorf("servers section: %q", text(servers))
	}
}

// findID returns the element with the given id, or nil.
func findID(doc *html.Node, id string) *html.Node {
	got := all(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })
	if len(got) == 0 {
		return nil
	}
	return got[0]
}

// TestWarningsPassAndValuesShowCharacters: a run whose only finding is a
// SHOULD warning passed with warnings; made strict, it failed. JSON values
// show "<b>", escaped by the page, not "\u003cb\u003e".
func TestWarningsPassAndValuesShowCharacters(t *testing.T) {
	mk := func(st report.Status) *report.Run {
		run := &report.Run{RunID: "w", Tests: []report.Test{
			{ID: "a", Name: "echo", Status: report.StatusPassed},
			{ID: "b", Name: "prompt errors", Block: "compliance", Status: st,
				Check: &report.Check{ID: "P01", Title: "prompt errors", Severity: "SHOULD"},
				Assertions: []report.Assertion{{Target: "prompts/get", Matcher: "SHOULD", Status: report.StatusFailed,
					Failure: json.RawMessage(`{"actual":{"message":"\u003cb\u003ebad\u003c/b\u003e \u0026 worse"}}`)}},
				Response: json.RawMessage(`{"text":"\u003ci\u003e"}`)},
		}}
		run.Summarize()
		if st == report.StatusFailed {
			run.ExitCode = 1
		}
		return run
	}
	page := renderRun(t, mk(report.StatusWarned))
	doc := parseHTML(t, page)
	if v := all(doc, byClass("verdict")); len(v) != 1 || text(v[0]) != "passed with warnings" {
		t.Errorf("verdict of a warned run")
	}
	body := text(tests(doc)[1])
	for _, want := range []string{`"message": "<b>bad</b> & worse"`, `"text": "<i>"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the warned test does not show %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, `\u003c`) {
		t.Errorf("JSON escapes shown:\n%s", body)
	}
	if strings.Contains(page, "<b>bad") || strings.Contains(page, "<i>") {
		t.Error("server text reached the page as markup")
	}
	strict := parseHTML(t, renderRun(t, mk(report.StatusFailed)))
	if v := all(strict, byClass("verdict")); len(v) != 1 || text(v[0]) != "failed" {
		t.Errorf("verdict of a strict run")
	}
}
