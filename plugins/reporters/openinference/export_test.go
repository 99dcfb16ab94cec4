package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans"
	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// export renders events through the plugin over gRPC and returns the
// primary output.
func export(t *testing.T, events []report.Event) string {
	t.Helper()
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "openinference"}, events)
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

func decodeSpans(t *testing.T, out string) []line {
	t.Helper()
	var tree []line
	for _, l := range lines(t, out) {
		var sp line
		dec := json.NewDecoder(bytes.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&sp); err != nil {
			t.Fatalf("line is not a span: %v\n%s", err, l)
		}
		tree = append(tree, sp)
	}
	return tree
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
	if want := spans.TraceID(reporttest.Sample()); a[0].TraceID != want {
		t.Errorf("trace id %s is not derived from the run id (%s)", a[0].TraceID, want)
	}
}

var (
	traceRE = regexp.MustCompile(`^[0-9a-f]{32}$`)
	spanRE  = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

// checkTree checks ids and links: one trace, unique well-formed span ids,
// one root, and every parent present in the file.
func checkTree(t *testing.T, tree []line) map[string]line {
	t.Helper()
	byID := map[string]line{}
	roots := 0
	for _, sp := range tree {
		if !traceRE.MatchString(sp.TraceID) || sp.TraceID != tree[0].TraceID {
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
	if roots != 1 || tree[0].ParentSpanID != nil || tree[0].Name != spans.NameRun {
		t.Errorf("%d roots; the first span is %s", roots, tree[0].Name)
	}
	for _, sp := range tree {
		if sp.ParentSpanID == nil {
			continue
		}
		parent, ok := byID[*sp.ParentSpanID]
		if !ok {
			t.Errorf("span %s %s: parent %s is not in the file", sp.Name, sp.SpanID, *sp.ParentSpanID)
			continue
		}
		want := map[string]string{spans.NameTest: spans.NameRun, spans.NameVerdict: spans.NameTest}[sp.Name]
		if parent.Name != want {
			t.Errorf("a %s span hangs under a %s span", sp.Name, parent.Name)
		}
	}
	return byID
}

func TestSampleTree(t *testing.T) {
	run := reporttest.Sample()
	tree := decodeSpans(t, export(t, reporttest.Events()))
	checkTree(t, tree)

	var tests, verdicts []line
	for _, sp := range tree[1:] {
		switch sp.Name {
		case spans.NameTest:
			tests = append(tests, sp)
		case spans.NameVerdict:
			verdicts = append(verdicts, sp)
		}
	}
	if len(tests) != len(run.Tests) {
		t.Fatalf("%d test spans for %d tests", len(tests), len(run.Tests))
	}
	wantCode := map[report.Status]string{report.StatusPassed: "OK", report.StatusFailed: "ERROR", report.StatusSkipped: "UNSET", report.StatusErrored: "UNSET"}
	wantWord := map[report.Status]string{report.StatusPassed: "pass", report.StatusFailed: "fail", report.StatusSkipped: "skip", report.StatusErrored: "inconclusive"}
	warned := 0
	for i, sp := range tests {
		tt := run.Tests[i]
		code, word := wantCode[tt.Status], wantWord[tt.Status]
		if tt.IsWarning() { // a failed SHOULD check: a pass with a warning
			code, word = "OK", "pass"
			warned++
			if sp.Attributes["mcptest.test.warning"] != true {
				t.Errorf("test %q: warning attribute %v", tt.Name, sp.Attributes["mcptest.test.warning"])
			}
		}
		if sp.StatusCode != code || sp.Attributes["mcptest.test.status"] != word {
			t.Errorf("test %q (%s): status %s / %v", tt.Name, tt.Status, sp.StatusCode, sp.Attributes["mcptest.test.status"])
		}
		if sp.Attributes["mcptest.test.name"] != tt.Name || sp.DurationMS != tt.DurationMS || sp.SpanKind != spans.KindChain {
			t.Errorf("test %q: %+v", tt.Name, sp)
		}
		if (sp.StatusMessage != "") != (sp.StatusCode == spans.StatusError) {
			t.Errorf("test %q: status message %q with code %s", tt.Name, sp.StatusMessage, sp.StatusCode)
		}
		if tt.Check != nil && sp.Attributes["mcptest.test.rule_id"] != tt.Check.ID {
			t.Errorf("test %q: rule_id %v", tt.Name, sp.Attributes["mcptest.test.rule_id"])
		}
	}

	// Only the scored test is judged; it passed with 0.75 against 0.7.
	if len(verdicts) != 1 {
		t.Fatalf("%d verdict tree, want 1", len(verdicts))
	}
	v := verdicts[0]
	if v.SpanKind != spans.KindEvaluator || v.StatusCode != spans.StatusOK || *v.ParentSpanID != tests[2].SpanID ||
		v.Attributes["mcptest.verdict.verdict"] != "pass" || v.Attributes["mcptest.verdict.score"] != 0.75 ||
		v.Attributes["mcptest.verdict.threshold"] != 0.7 {
		t.Errorf("verdict span: %+v", v)
	}

	root := tree[0]
	s := run.Summary
	if warned == 0 {
		t.Fatal("the sample has no warning; the test checks nothing about warnings")
	}
	// Warned tests count as passed, as the exit code treats them, and
	// apart under warned. They are counted from the tests, since the
	// summary of an older report counts a warning as failed.
	want := map[string]int{"total": len(run.Tests), "warned": warned}
	for i := range run.Tests {
		want[map[string]string{"pass": "passed", "fail": "failed", "skip": "skipped", "inconclusive": "inconclusive"}[tests[i].Attributes["mcptest.test.status"].(string)]]++
	}
	if want["passed"] != s.Passed+warned || want["skipped"] != s.Skipped || want["inconclusive"] != s.Errored {
		t.Errorf("span statuses %v disagree with the summary %+v", want, s)
	}
	for k, want := range want {
		if got := root.Attributes["mcptest.run."+k]; got != float64(want) {
			t.Errorf("mcptest.run.%s = %v, want %d", k, got, want)
		}
	}
	if root.StatusCode != spans.StatusError || root.Attributes["mcptest.run.id"] != run.RunID || root.Attributes["mcptest.version"] != run.Tool.Version {
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
	for name, run := range map[string]*report.Run{"sample": reporttest.Sample(), "edge cases": edgeRun(), "warning": spanstest.WarningRun(), "partial": partialRun(), "agent": spanstest.AgentRun(), "evals": reporttest.Evals()} {
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
		strings.Replace(good, `"openinference.span.kind":"CHAIN"`, `"openinference.span.kind":"EVALUATOR"`, 1),
		strings.Replace(good, `"start_time_unix_nano":"`, `"start_time_unix_nano":"-`, 1),
		strings.Replace(good, `"end_time_unix_nano":"`, `"other_time":"`, 1),
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("the schema accepts a broken span:\n%s", bad)
		}
	}
	// Nor broken agent spans: a model call of the wrong kind, a tool span
	// without its tool, an attribute outside the conventions.
	agent := lines(t, export(t, finishedOnly(spanstest.AgentRun())))
	llm, tool := string(agent[3]), string(agent[4])
	for _, bad := range []string{
		strings.Replace(llm, `"span_kind":"LLM"`, `"span_kind":"TOOL"`, 1),
		strings.Replace(tool, `"tool.name":`, `"tool.nom":`, 1),
		strings.Replace(llm, `"llm.input_messages.0.message.role"`, `"llm.input_messages.0.message.rol"`, 1),
	} {
		if bad == llm || bad == tool {
			t.Fatalf("the replacement did not apply to %s", bad)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("the schema accepts a broken agent span:\n%s", bad)
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
	tree := decodeSpans(t, export(t, finishedOnly(edgeRun())))
	checkTree(t, tree)
	if len(tree) != 1+4+2 {
		t.Fatalf("%d tree, want 7", len(tree))
	}
	if tree[1].SpanID == tree[2].SpanID {
		t.Error("tests sharing an id share a span id")
	}
	low := tree[4]
	if low.Name != spans.NameVerdict || low.StatusCode != spans.StatusError || !strings.Contains(low.StatusMessage, "below the threshold") {
		t.Errorf("failed verdict: %+v", low)
	}
	inconclusive := tree[6]
	if inconclusive.Name != spans.NameVerdict || inconclusive.StatusCode != spans.StatusUnset || inconclusive.Attributes["mcptest.verdict.verdict"] != "inconclusive" {
		t.Errorf("errored verdict: %+v", inconclusive)
	}
	if tree[0].StatusCode != spans.StatusError {
		t.Errorf("run with a failure: %s", tree[0].StatusCode)
	}

	// The run span is OK only when tests passed and nothing else happened.
	pass := &report.Run{RunID: "p", Tests: []report.Test{{ID: "a", Status: report.StatusPassed}, {ID: "b", Status: report.StatusSkipped}}}
	empty := &report.Run{RunID: "e"}
	crashed := &report.Run{RunID: "c", Tests: pass.Tests, Errors: []report.RunError{{Source: "plugin", Message: "crashed"}}}
	for _, tc := range []struct {
		run  *report.Run
		want string
	}{{pass, spans.StatusOK}, {empty, spans.StatusUnset}, {crashed, spans.StatusUnset}} {
		if got := decodeSpans(t, export(t, finishedOnly(tc.run)))[0].StatusCode; got != tc.want {
			t.Errorf("run %s: status %s, want %s", tc.run.RunID, got, tc.want)
		}
	}
}

func TestWithoutRunFinished(t *testing.T) {
	c := plugintest.New(t, newPlugin(), nil)
	got := plugintest.Render(t, c, plugintest.RenderStart{Key: "openinference"}, reporttest.Events()[:3])
	if got.Err == nil || !strings.Contains(got.Err.Error(), "run_finished") || got.Primary != "" {
		t.Errorf("err = %v, output %q; want the missing run_finished error and no output", got.Err, got.Primary)
	}
}

// The lines carry the shared tree's times as decimal strings, and a run
// whose only finding is a SHOULD warning is OK from root to leaf.
func TestTimesAndWarnings(t *testing.T) {
	run := spanstest.OnlyWarning()
	got := decodeSpans(t, export(t, finishedOnly(run)))
	tree := spans.Build(run)
	if len(got) != len(tree) {
		t.Fatalf("%d lines for %d spans", len(got), len(tree))
	}
	for i, l := range got {
		if l.StartTimeUnixNano != strconv.FormatInt(tree[i].StartUnixNano, 10) || l.EndTimeUnixNano != strconv.FormatInt(tree[i].EndUnixNano, 10) {
			t.Errorf("line %d times %s..%s, span %d..%d", i, l.StartTimeUnixNano, l.EndTimeUnixNano, tree[i].StartUnixNano, tree[i].EndUnixNano)
		}
		if l.StatusCode != spans.StatusOK {
			t.Errorf("line %d (%s) is %s in a run that only warned", i, l.Name, l.StatusCode)
		}
	}
	if got[0].StartTimeUnixNano != "1795599000000000000" {
		t.Errorf("run starts at %s", got[0].StartTimeUnixNano)
	}
}

// partialRun is a merged report that lacks two of its four shards.
func partialRun() *report.Run {
	run := spanstest.WarningRun()
	run.Partial = &report.Partial{MissingShards: []int{2, 3}, ShardTotal: 4}
	return run
}
