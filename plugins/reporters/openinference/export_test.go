package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// export renders events through the plugin over gRPC and returns the
// primary output.
func export(t *testing.T, events []report.Event) string {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, sdk.RenderStart{Key: "openinference"}, events)
	if got.Err != nil {
		t.Fatalf("render: %v", got.Err)
	}
	if got.Progress != "" || got.StepSummary != "" {
		t.Errorf("output outside the primary sink")
	}
	return got.Primary
}

// finishedOnly is the event stream of a run reduced to its final report.
func finishedOnly(run *report.Run) []report.Event {
	return []report.Event{{Type: report.EventRunFinished, Run: run}}
}

// lines splits JSONL output, checking each line is one JSON object.
func lines(t *testing.T, out string) []json.RawMessage {
	t.Helper()
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end with a newline")
	}
	var ls []json.RawMessage
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("line is not JSON: %s", sc.Bytes())
		}
		ls = append(ls, bytes.Clone(sc.Bytes()))
	}
	return ls
}

func decodeSpans(t *testing.T, out string) []span {
	t.Helper()
	var spans []span
	for _, l := range lines(t, out) {
		var sp span
		dec := json.NewDecoder(bytes.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&sp); err != nil {
			t.Fatalf("line is not a span: %v\n%s", err, l)
		}
		spans = append(spans, sp)
	}
	return spans
}

func TestDeterministic(t *testing.T) {
	live := export(t, reporttest.Events())
	again := export(t, reporttest.Events())
	saved := export(t, finishedOnly(reporttest.Sample()))
	if live != again {
		t.Errorf("two exports of the same run differ:\n%s\n---\n%s", live, again)
	}
	// A saved report re-rendered (mcptest report) gives the same file.
	if live != saved {
		t.Errorf("export of the live run and of the saved report differ")
	}

	other := reporttest.Sample()
	other.RunID = "another-run"
	a, b := decodeSpans(t, live), decodeSpans(t, export(t, finishedOnly(other)))
	if a[0].TraceID == b[0].TraceID || a[1].SpanID == b[1].SpanID {
		t.Error("different run ids gave the same ids")
	}
	if want := traceID(reporttest.Sample().RunID); a[0].TraceID != want {
		t.Errorf("trace id %s is not derived from the run id (%s)", a[0].TraceID, want)
	}
}

var (
	traceRE = regexp.MustCompile(`^[0-9a-f]{32}$`)
	spanRE  = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

// checkTree checks ids and links: one trace, unique well-formed span ids,
// one root, and every parent present in the file.
func checkTree(t *testing.T, spans []span) map[string]span {
	t.Helper()
	byID := map[string]span{}
	roots := 0
	for _, sp := range spans {
		if !traceRE.MatchString(sp.TraceID) || sp.TraceID != spans[0].TraceID {
			t.Errorf("span %s: trace id %q", sp.Name, sp.TraceID)
		}
		if !spanRE.MatchString(sp.SpanID) {
			t.Errorf("span %s: span id %q", sp.Name, sp.SpanID)
		}
		if _, dup := byID[sp.SpanID]; dup {
			t.Errorf("span id %s is used twice", sp.SpanID)
		}
		byID[sp.SpanID] = sp
		if sp.ParentSpanID == nil {
			roots++
		}
	}
	if roots != 1 || spans[0].ParentSpanID != nil || spans[0].Name != nameRun {
		t.Errorf("%d roots; the first span is %s", roots, spans[0].Name)
	}
	for _, sp := range spans {
		if sp.ParentSpanID == nil {
			continue
		}
		parent, ok := byID[*sp.ParentSpanID]
		if !ok {
			t.Errorf("span %s %s: parent %s is not in the file", sp.Name, sp.SpanID, *sp.ParentSpanID)
			continue
		}
		want := map[string]string{nameTest: nameRun, nameVerdict: nameTest}[sp.Name]
		if parent.Name != want {
			t.Errorf("a %s span hangs under a %s span", sp.Name, parent.Name)
		}
	}
	return byID
}

func TestSampleTree(t *testing.T) {
	run := reporttest.Sample()
	spans := decodeSpans(t, export(t, reporttest.Events()))
	checkTree(t, spans)

	var tests, verdicts []span
	for _, sp := range spans[1:] {
		switch sp.Name {
		case nameTest:
			tests = append(tests, sp)
		case nameVerdict:
			verdicts = append(verdicts, sp)
		}
	}
	if len(tests) != len(run.Tests) {
		t.Fatalf("%d test spans for %d tests", len(tests), len(run.Tests))
	}
	wantCode := map[report.Status]string{report.StatusPassed: "OK", report.StatusWarned: "OK", report.StatusFailed: "ERROR", report.StatusSkipped: "UNSET", report.StatusErrored: "UNSET"}
	wantWord := map[report.Status]string{report.StatusPassed: "pass", report.StatusWarned: "pass", report.StatusFailed: "fail", report.StatusSkipped: "skip", report.StatusErrored: "inconclusive"}
	for i, sp := range tests {
		tt := run.Tests[i]
		if sp.StatusCode != wantCode[tt.Status] || sp.Attributes["mcptest.test.status"] != wantWord[tt.Status] {
			t.Errorf("test %q (%s): status %s / %v", tt.Name, tt.Status, sp.StatusCode, sp.Attributes["mcptest.test.status"])
		}
		if sp.Attributes["mcptest.test.name"] != tt.Name || sp.DurationMS != tt.DurationMS || sp.SpanKind != kindChain {
			t.Errorf("test %q: %+v", tt.Name, sp)
		}
		if (sp.StatusMessage != "") != (sp.StatusCode == statusError) {
			t.Errorf("test %q: status message %q with code %s", tt.Name, sp.StatusMessage, sp.StatusCode)
		}
		if tt.Check != nil && sp.Attributes["mcptest.test.rule_id"] != tt.Check.ID {
			t.Errorf("test %q: rule_id %v", tt.Name, sp.Attributes["mcptest.test.rule_id"])
		}
	}

	// Only the scored test is judged; it passed with 0.75 against 0.7.
	if len(verdicts) != 1 {
		t.Fatalf("%d verdict spans, want 1", len(verdicts))
	}
	v := verdicts[0]
	if v.SpanKind != kindEvaluator || v.StatusCode != statusOK || *v.ParentSpanID != tests[2].SpanID ||
		v.Attributes["mcptest.verdict.verdict"] != "pass" || v.Attributes["mcptest.verdict.score"] != 0.75 ||
		v.Attributes["mcptest.verdict.threshold"] != 0.7 {
		t.Errorf("verdict span: %+v", v)
	}

	root := spans[0]
	s := run.Summary
	for k, want := range map[string]int{"total": s.Total, "passed": s.Passed + s.Warned, "failed": s.Failed, "skipped": s.Skipped, "inconclusive": s.Errored} {
		if got := root.Attributes["mcptest.run."+k]; got != float64(want) {
			t.Errorf("mcptest.run.%s = %v, want %d", k, got, want)
		}
	}
	if root.StatusCode != statusError || root.Attributes["mcptest.run.id"] != run.RunID || root.Attributes["mcptest.version"] != run.Tool.Version {
		t.Errorf("root span: %+v", root)
	}
}

func TestEveryLineValidates(t *testing.T) {
	raw, err := os.ReadFile("testdata/span.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("span.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("span.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, run := range map[string]*report.Run{"sample": reporttest.Sample(), "edge cases": edgeRun()} {
		for i, l := range lines(t, export(t, finishedOnly(run))) {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(l))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s line %d does not validate: %v\n%s", name, i+1, err, l)
			}
		}
	}

	// The schema is not vacuous: broken spans fail it.
	good := string(lines(t, export(t, finishedOnly(reporttest.Sample())))[1])
	for _, bad := range []string{
		strings.Replace(good, `"span_kind":"CHAIN"`, `"span_kind":"LLM"`, 1),
		strings.Replace(good, `"status_code":"OK"`, `"status_code":"PASS"`, 1),
		strings.Replace(good, `"parent_span_id":"`, `"parent_span_id":"0`, 1),
		strings.Replace(good, `"attributes":{`, `"attributes":{"other.key":1,`, 1),
		strings.Replace(good, `"schema_version":"mcptest.dev/openinference/v1"`, `"schema_version":"v2"`, 1),
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("the schema accepts a broken span:\n%s", bad)
		}
	}
}

// edgeRun has what the sample lacks: no run id, duplicate test ids, a
// judged test that failed below its threshold, one that errored, a shard.
func edgeRun() *report.Run {
	lo, hi, th := 0.25, 0.9, 0.5
	run := &report.Run{
		Suites: []string{"a.yml"},
		Shard:  &report.Shard{Index: 1, Total: 2},
		Tests: []report.Test{
			{ID: "dup", Name: "first copy", Status: report.StatusPassed},
			{ID: "dup", Name: "second copy", Status: report.StatusPassed},
			{ID: "low", Name: "low score", Status: report.StatusFailed, Score: &lo, Threshold: &th,
				Assertions: []report.Assertion{{Matcher: "llm-judge", Status: report.StatusFailed, Score: &lo}}},
			{ID: "err", Name: "judge crashed", Status: report.StatusErrored, Score: &hi, Threshold: &th,
				Error: &report.Error{Kind: "plugin_crashed", Message: "judge exited"}},
		},
	}
	run.Summarize()
	return run
}

func TestEdgeCases(t *testing.T) {
	spans := decodeSpans(t, export(t, finishedOnly(edgeRun())))
	checkTree(t, spans)
	if len(spans) != 1+4+2 {
		t.Fatalf("%d spans, want 7", len(spans))
	}
	if spans[1].SpanID == spans[2].SpanID {
		t.Error("tests sharing an id share a span id")
	}
	low := spans[4]
	if low.Name != nameVerdict || low.StatusCode != statusError || !strings.Contains(low.StatusMessage, "below the threshold") {
		t.Errorf("failed verdict: %+v", low)
	}
	inconclusive := spans[6]
	if inconclusive.Name != nameVerdict || inconclusive.StatusCode != statusUnset || inconclusive.Attributes["mcptest.verdict.verdict"] != "inconclusive" {
		t.Errorf("errored verdict: %+v", inconclusive)
	}
	if spans[0].StatusCode != statusError {
		t.Errorf("run with a failure: %s", spans[0].StatusCode)
	}

	// The run span is OK only when tests passed and nothing else happened.
	pass := &report.Run{RunID: "p", Tests: []report.Test{{ID: "a", Status: report.StatusPassed}, {ID: "b", Status: report.StatusSkipped}}}
	empty := &report.Run{RunID: "e"}
	crashed := &report.Run{RunID: "c", Tests: pass.Tests, Errors: []report.RunError{{Source: "plugin", Message: "crashed"}}}
	for _, tc := range []struct {
		run  *report.Run
		want string
	}{{pass, statusOK}, {empty, statusUnset}, {crashed, statusUnset}} {
		if got := decodeSpans(t, export(t, finishedOnly(tc.run)))[0].StatusCode; got != tc.want {
			t.Errorf("run %s: status %s, want %s", tc.run.RunID, got, tc.want)
		}
	}
}

func TestWithoutRunFinished(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, sdk.RenderStart{Key: "openinference"}, reporttest.Events()[:3])
	if got.Err == nil || !strings.Contains(got.Err.Error(), "run_finished") || got.Primary != "" {
		t.Errorf("err = %v, output %q; want the missing run_finished error and no output", got.Err, got.Primary)
	}
}
