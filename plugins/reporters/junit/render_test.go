package main

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// render streams events through the plugin over gRPC and returns what it
// wrote to the primary sink; the other sinks must stay empty.
func render(t *testing.T, events []report.Event) string {
	t.Helper()
	return rendertest.Primary(t, newPlugin(), pluginName, events)
}

// finished is the event stream of a run known only by its final report,
// as when a stored report is re-rendered.
var finished = rendertest.Finished

// The read* types decode the output back, independently of the writer's
// types.
type readDoc struct {
	Attrs  []xml.Attr  `xml:",any,attr"`
	Suites []readSuite `xml:"testsuite"`
}

type readSuite struct {
	Name      string `xml:"name,attr"`
	Package   string `xml:"package,attr"`
	ID        int    `xml:"id,attr"`
	Tests     int    `xml:"tests,attr"`
	Failures  int    `xml:"failures,attr"`
	Errors    int    `xml:"errors,attr"`
	Skipped   int    `xml:"skipped,attr"`
	Time      string `xml:"time,attr"`
	Timestamp string `xml:"timestamp,attr"`
	Props     []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Cases     []readCase `xml:"testcase"`
	SystemOut string     `xml:"system-out"`
	SystemErr string     `xml:"system-err"`
}

type readCase struct {
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	Time      string      `xml:"time,attr"`
	Failure   *readDetail `xml:"failure"`
	Error     *readDetail `xml:"error"`
	Skipped   *readDetail `xml:"skipped"`
}

type readDetail struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// parse decodes the document and checks it holds only characters XML 1.0
// allows and no escape or bell characters.
func parse(t *testing.T, out string) readDoc {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatal("output is not valid UTF-8")
	}
	for i, r := range out {
		if r == 0xfffe || r == 0xffff || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			t.Fatalf("forbidden character %U at byte %d", r, i)
		}
	}
	var doc readDoc
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not XML: %v\n%s", err, out)
	}
	return doc
}

// prop returns a suite property's value.
func (s *readSuite) prop(name string) string {
	for _, p := range s.Props {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

func TestSampleValidatesAgainstXSD(t *testing.T) {
	validateXSD(t, render(t, reporttest.Events()))
}

func TestSampleContent(t *testing.T) {
	out := render(t, reporttest.Events())
	if !strings.HasPrefix(out, xml.Header+"<testsuites>\n") || !strings.HasSuffix(out, "</testsuites>\n") {
		t.Errorf("unexpected framing:\n%s", out)
	}
	doc := parse(t, out)
	if len(doc.Attrs) != 0 {
		t.Errorf("<testsuites> has attributes %v; the schema allows none", doc.Attrs)
	}
	type counts struct {
		name                             string
		tests, failures, errors, skipped int
	}
	want := []counts{
		{"suites/smoke.yml tools", 5, 1, 1, 1},
		{"suites/compliance.yml compliance", 3, 1, 0, 0},
		{"mcptest", 1, 0, 1, 0},
	}
	if len(doc.Suites) != len(want) {
		t.Fatalf("got %d suites, want %d", len(doc.Suites), len(want))
	}
	var total counts
	for i, w := range want {
		s := doc.Suites[i]
		got := counts{s.Name, s.Tests, s.Failures, s.Errors, s.Skipped}
		if got != w || s.ID != i || len(s.Cases) != s.Tests || s.Timestamp != "2026-11-25T12:00:00" {
			t.Errorf("suite %d = %+v (id %d, %d cases, %s), want %+v", i, got, s.ID, len(s.Cases), s.Timestamp, w)
		}
		total.tests += s.Tests
		total.failures += s.Failures
		total.errors += s.Errors
		total.skipped += s.Skipped
	}
	sum := reporttest.Sample().Summary
	if total.tests != sum.Total+1 || total.failures != sum.Failed || total.errors != sum.Errored+1 || total.skipped != sum.Skipped {
		t.Errorf("totals %+v disagree with the summary %+v plus one run error", total, sum)
	}

	smoke := doc.Suites[0]
	if smoke.Package != "suites/smoke.yml" || smoke.Time != "0.02175" {
		t.Errorf("smoke suite package %q time %q", smoke.Package, smoke.Time)
	}
	pass := smoke.Cases[0]
	if pass.Name != "echo passes" || pass.Classname != "suites/smoke.yml.tools" || pass.Time != "0.00325" ||
		pass.Failure != nil || pass.Error != nil || pass.Skipped != nil {
		t.Errorf("passing case = %+v", pass)
	}
	fail := smoke.Cases[1]
	if want := `echo fails <b>&"quoted"</b>  naïve ✓`; fail.Name != want {
		t.Errorf("hostile name = %q, want %q", fail.Name, want)
	}
	if f := fail.Failure; f == nil || f.Type != "exact" || f.Message != "result.content[0].text exact: echo should say goodbye (and 1 more)" {
		t.Fatalf("failure = %+v", f)
	}
	for _, want := range []string{
		"result.content[0].text exact: echo should say goodbye\n",
		"  expected: \"goodbye\"\n  actual:   \"hello\"\n  diff:     [-goodbye-]{+hello+}\n",
		"result schema\n  errors: [{",
		"expected boolean, got string",
		"server stderr (last lines):\n  demo: warning <b>&\"quoted\"</b>  naïve ✓\n",
	} {
		if !strings.Contains(fail.Failure.Body, want) {
			t.Errorf("failure body lacks %q:\n%s", want, fail.Failure.Body)
		}
	}
	if e := smoke.Cases[3].Error; e == nil || e.Type != "server_exited" || e.Message != `server "broken" exited (exit status 3)` ||
		!strings.Contains(e.Body, "panic: crash requested\n  goroutine 1 [running]:") {
		t.Errorf("errored case = %+v", e)
	}
	if s := smoke.Cases[4].Skipped; s == nil || s.Message != "run interrupted before the test started" {
		t.Errorf("skipped case = %+v", s)
	}
	for name, want := range map[string]string{
		"suite.file":                      "suites/smoke.yml",
		"suite.block":                     "tools",
		"mcptest.version":                 "0.1.0",
		"server[demo].protocol_version":   "2025-11-25",
		"test[echo passes].tags":          "smoke,fast",
		"test[scored].score":              "0.75",
		"test[scored].threshold":          "0.7",
		"test[server crashed].score":      "",
		"server[broken].protocol_version": "",
	} {
		if got := smoke.prop(name); got != want {
			t.Errorf("property %s = %q, want %q", name, got, want)
		}
	}
	if !strings.Contains(smoke.SystemErr, "=== server crashed\npanic: crash requested\n") ||
		!strings.Contains(smoke.SystemErr, "demo: warning <b>&\"quoted\"</b>") {
		t.Errorf("system-err = %q", smoke.SystemErr)
	}

	comp := doc.Suites[1]
	if got := comp.prop("test[J04 unknown method is -32601].check.id"); got != "J04" {
		t.Errorf("check id property = %q", got)
	}
	if got := comp.prop("test[T06 tool names follow the naming rules].check.severity"); got != "SHOULD" {
		t.Errorf("check severity property = %q", got)
	}
	// The SHOULD warning passes, as the run does; the finding is in the
	// suite's system-out and a property.
	if w := comp.Cases[2]; w.Failure != nil || w.Error != nil || w.Skipped != nil {
		t.Errorf("a warning must be a passing test case: %+v", w)
	}
	if got := comp.prop("test[T06 tool names follow the naming rules].warning"); got != "T06 (SHOULD)" {
		t.Errorf("warning property = %q", got)
	}
	if !strings.Contains(comp.SystemOut, "=== T06 tool names follow the naming rules\nwarning: T06 (SHOULD)\nresult.tools[2].name regex\n") ||
		!strings.Contains(comp.SystemOut, `actual:   "bad name!"`) {
		t.Errorf("system-out = %q", comp.SystemOut)
	}
	if f := comp.Cases[1].Failure; f == nil || !strings.Contains(f.Body, "expected: -32601\n  actual:   -32600\n") ||
		!strings.Contains(f.Body, "check: J04 Unknown method answers -32601 (MUST, 2025-11-25, basic/index)") {
		t.Errorf("compliance failure = %+v", f)
	}

	crash := doc.Suites[2].Cases[0]
	if crash.Name != "plugin chaos@0.0.1" || crash.Classname != "mcptest.plugin" || crash.Error == nil ||
		crash.Error.Type != "plugin" || !strings.Contains(crash.Error.Body, "ERROR: chaos: exiting on purpose") {
		t.Errorf("run error case = %+v %+v", crash, crash.Error)
	}
}

// hostileRun has text that is invalid in XML or dangerous in a viewer in
// every field a server or plugin controls, plus edge cases of status.
func hostileRun() *report.Run {
	bad := "a\x1b]0;title\x07b\x00c\x0bd\ufffee\r\nf\u202eg\xffh"
	fail := json.RawMessage(`{"expected":"x\u0000y","actual":"\u001b[31mred","diff":"-a\n+b\u001b[0m","note":"\u0007"}`)
	score, threshold := 0.5, 0.7
	return &report.Run{
		RunID: "r" + bad, Tool: report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt: time.Date(2026, 1, 2, 3, 4, 5, 999_000_000, time.FixedZone("X", 3600)),
		Suites:    []string{"odd & dir/s.yml"},
		Servers:   []report.Server{{Name: "s" + bad, ProtocolVersion: "v" + bad, TargetVersion: bad}},
		Tests: []report.Test{
			{ID: "id1", Name: bad, File: "odd & dir/s.yml", Block: "tools\n", Server: "s" + bad, Tags: []string{bad, ""},
				Status: report.StatusFailed, DurationMS: 1e-9, Stderr: bad, ProtocolVersion: bad,
				Check:      &report.Check{ID: bad, Title: bad, Severity: "MUST"},
				Assertions: []report.Assertion{{Target: bad, Matcher: bad, Message: bad, Status: report.StatusFailed, Failure: fail}}},
			{ID: "id2", Name: "", File: "", Block: "", Status: "weird", DurationMS: -3},
			{ID: "id3", Name: "under threshold", File: "odd & dir/s.yml", Block: "tools\n", Status: report.StatusFailed,
				Score: &score, Threshold: &threshold, ProtocolVersion: bad},
			{ID: "id4", Name: "errored assertion", File: "odd & dir/s.yml", Block: "tools\n", Status: report.StatusErrored, ProtocolVersion: bad,
				Assertions: []report.Assertion{{Target: "result", Matcher: "cel", Status: report.StatusErrored, Error: bad, Plugin: "cel@1"}}},
		},
		Errors: []report.RunError{{Source: bad, Message: bad, StderrTail: bad}},
	}
}

func TestHostileTextStaysValid(t *testing.T) {
	out := render(t, finished(hostileRun()))
	doc := parse(t, out)
	if len(doc.Suites) != 3 {
		t.Fatalf("got %d suites", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Name != "odd & dir/s.yml tools [abcde fg\ufffdh]" || s.Timestamp != "2026-01-02T02:04:05" || s.Tests != 3 || s.Failures != 2 || s.Errors != 1 {
		t.Errorf("suite = %q %s %d/%d/%d", s.Name, s.Timestamp, s.Tests, s.Failures, s.Errors)
	}
	if want := "abcde fg\ufffdh"; s.Cases[0].Name != want {
		t.Errorf("case name = %q, want %q", s.Cases[0].Name, want)
	}
	if f := s.Cases[0].Failure; f == nil || !strings.Contains(f.Body, `expected: "x\u0000y"`) || !strings.Contains(f.Body, "-a\n    +b") {
		t.Errorf("failure = %+v", f)
	}
	if f := s.Cases[1].Failure; f == nil || f.Type != "threshold" || f.Message != "score 0.5 is below the threshold 0.7" {
		t.Errorf("threshold failure = %+v", f)
	}
	if e := s.Cases[2].Error; e == nil || e.Type != "errored" || !strings.Contains(e.Body, "[plugin cel@1]") {
		t.Errorf("errored assertion = %+v", e)
	}
	odd := doc.Suites[1]
	if odd.Name != "mcptest" || odd.Cases[0].Error == nil || odd.Cases[0].Error.Type != "unknown_status" || odd.Cases[0].Time != "0" {
		t.Errorf("unnamed test with an unknown status = %+v", odd)
	}
	validateXSD(t, out)
}

func TestEmptyRun(t *testing.T) {
	out := render(t, finished(&report.Run{RunID: "empty"}))
	if want := xml.Header + "<testsuites></testsuites>\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	validateXSD(t, out)
}

func TestSeconds(t *testing.T) {
	for ms, want := range map[float64]string{0: "0", 1500: "1.5", 3.25: "0.00325", 0.0004: "0", -1: "0", 1e15: "1000000000000"} {
		if got := seconds(ms); got != want {
			t.Errorf("seconds(%v) = %q, want %q", ms, got, want)
		}
	}
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), pluginName)
}

// TestWildcardEntryAndStrictWarning: an entry running every check ("*")
// names each finding by its own check and level; a SHOULD failure made
// strict (status failed) is a JUnit failure like any other.
func TestWildcardEntryAndStrictWarning(t *testing.T) {
	run := &report.Run{RunID: "w", Tests: []report.Test{{
		ID: "s.yml::compliance::all", Name: "all", File: "s.yml", Block: "compliance", Status: report.StatusFailed,
		Check: &report.Check{ID: "*", Title: "3 compliance checks", Severity: "MUST"},
		Assertions: []report.Assertion{
			{Index: 0, Target: "J06 invalid requests", Matcher: "MUST", Status: report.StatusFailed, Message: "no error",
				Check: &report.Check{ID: "J06", Title: "invalid requests", Severity: "MUST", Revision: "2025-11-25"}},
			{Index: 1, Target: "P01 prompt errors", Matcher: "SHOULD", Status: report.StatusFailed,
				Check: &report.Check{ID: "P01", Title: "prompt errors", Severity: "SHOULD", Revision: "2025-11-25"}},
		},
	}, {
		ID: "s.yml::compliance::strict", Name: "strict", File: "s.yml", Block: "compliance", Status: report.StatusFailed,
		Check:      &report.Check{ID: "P01", Title: "prompt errors", Severity: "SHOULD"},
		Assertions: []report.Assertion{{Index: 0, Target: "prompts/get", Matcher: "SHOULD", Status: report.StatusFailed}},
	}}}
	run.Summarize()
	out := render(t, finished(run))
	validateXSD(t, out)
	doc := parse(t, out)
	s := doc.Suites[0]
	if s.Failures != 2 || s.SystemOut != "" {
		t.Fatalf("suite %+v", s)
	}
	body := s.Cases[0].Failure.Body
	for _, want := range []string{"check: J06 invalid requests (MUST, 2025-11-25)", "check: P01 prompt errors (SHOULD, 2025-11-25)"} {
		if !strings.Contains(body, want) {
			t.Errorf("failure body lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "P01 prompt errors (MUST") {
		t.Errorf("a SHOULD finding is labelled MUST:\n%s", body)
	}
	if got := s.prop("test[all].findings"); got != "J06 MUST, P01 SHOULD" {
		t.Errorf("findings property = %q", got)
	}
	if s.Cases[1].Failure == nil {
		t.Errorf("a strict SHOULD failure must fail the test case")
	}
}
