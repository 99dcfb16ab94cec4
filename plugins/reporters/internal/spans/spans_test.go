package spans_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans"
	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// byName returns the test span of the test with the given name.
func byName(t *testing.T, tree []spans.Span, name string) spans.Span {
	t.Helper()
	for _, sp := range tree {
		if sp.Name == spans.NameTest && sp.Attributes["mcptest.test.name"] == name {
			return sp
		}
	}
	t.Fatalf("no test span named %q", name)
	return spans.Span{}
}

// A SHOULD warning does not fail the run, so it is not an error span and
// does not turn the run span to ERROR (it did before: regression).
func TestWarningIsNotAnError(t *testing.T) {
	tree := spans.Build(spanstest.OnlyWarning())
	root := tree[0]
	if root.StatusCode != spans.StatusOK || root.StatusMessage != "" {
		t.Errorf("run with only a warning: status %s %q, want OK", root.StatusCode, root.StatusMessage)
	}
	if root.Attributes["mcptest.run.failed"] != 0 || root.Attributes["mcptest.run.warned"] != 1 || root.Attributes["mcptest.run.passed"] != 2 {
		t.Errorf("run counts: %v", root.Attributes)
	}
	w := byName(t, tree, "T06 tool names")
	if w.StatusCode != spans.StatusOK || w.StatusMessage != "" || w.Attributes["mcptest.test.warning"] != true ||
		w.Attributes["mcptest.test.status"] != spans.VerdictPass ||
		!strings.Contains(w.Attributes["mcptest.test.warning_message"].(string), "bad name!") {
		t.Errorf("warned test span: %+v", w)
	}
	if _, ok := byName(t, tree, "echo").Attributes["mcptest.test.warning"]; ok {
		t.Error("a clean pass carries mcptest.test.warning")
	}

	// With a real failure beside it the run is ERROR, counting the
	// failures only.
	mixed := spans.Build(spanstest.WarningRun())
	if mixed[0].StatusCode != spans.StatusError || mixed[0].StatusMessage != "2 of 5 tests failed" {
		t.Errorf("mixed run: %s %q", mixed[0].StatusCode, mixed[0].StatusMessage)
	}
	if j := byName(t, mixed, "J04 unknown method"); j.StatusCode != spans.StatusError {
		t.Errorf("MUST failure: %s", j.StatusCode)
	}
}

// Children lie within their parents and no span ends before it starts;
// test spans last their recorded durations from the run's start.
func TestTimes(t *testing.T) {
	for name, run := range map[string]*report.Run{"warning": spanstest.WarningRun(), "sample": reporttest.Sample(), "agent": spanstest.AgentRun(), "evals": reporttest.Evals()} {
		tree := spans.Build(run)
		byID := map[string]spans.Span{}
		for _, sp := range tree {
			byID[sp.SpanID] = sp
		}
		root := tree[0]
		if root.StartUnixNano != run.StartedAt.UnixNano() || root.EndUnixNano < run.FinishedAt.UnixNano() {
			t.Errorf("%s: root %d..%d, run %v..%v", name, root.StartUnixNano, root.EndUnixNano, run.StartedAt, run.FinishedAt)
		}
		for _, sp := range tree {
			if sp.StartUnixNano > sp.EndUnixNano {
				t.Errorf("%s: %s %s starts after it ends", name, sp.Name, sp.SpanID)
			}
			if sp.IsRoot() {
				continue
			}
			p := byID[sp.ParentSpanID]
			if sp.StartUnixNano < p.StartUnixNano || sp.EndUnixNano > p.EndUnixNano {
				t.Errorf("%s: %s %d..%d outside its parent %d..%d", name, sp.Name, sp.StartUnixNano, sp.EndUnixNano, p.StartUnixNano, p.EndUnixNano)
			}
			if sp.Name == spans.NameTest && sp.EndUnixNano-sp.StartUnixNano != int64(math.Round(sp.DurationMS*1e6)) {
				t.Errorf("%s: test span lasts %d ns for %g ms", name, sp.EndUnixNano-sp.StartUnixNano, sp.DurationMS)
			}
		}
	}

	// A test longer than the run (a merged or edited report) stretches
	// the run span rather than leaving its parent.
	run := spanstest.WarningRun()
	run.Tests[0].DurationMS = 10_000
	tree := spans.Build(run)
	if tree[0].EndUnixNano != run.StartedAt.Add(10*time.Second).UnixNano() {
		t.Errorf("run span ends at %d", tree[0].EndUnixNano)
	}

	// Without any time the spans sit at 0 rather than at a made-up date.
	bare := spans.Build(&report.Run{RunID: "bare", Tests: []report.Test{{ID: "a", Status: report.StatusPassed, DurationMS: 1}}})
	if bare[0].StartUnixNano != 0 || bare[1].EndUnixNano != 1e6 || bare[0].EndUnixNano != 1e6 {
		t.Errorf("bare run: %+v", bare)
	}
}

// Test spans carry the request and the judged answer as OpenInference
// input and output, and whether the answer came from the cache.
func TestInputOutputAndCache(t *testing.T) {
	tree := spans.Build(spanstest.WarningRun())
	echo := byName(t, tree, "echo")
	a := echo.Attributes
	if a[spans.AttrInputValue] != `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}` ||
		a[spans.AttrInputMimeType] != spans.MimeJSON {
		t.Errorf("input: %q %q", a[spans.AttrInputValue], a[spans.AttrInputMimeType])
	}
	// The judged envelope, compacted.
	if a[spans.AttrOutputValue] != `{"result":{"content":[{"type":"text","text":"hi"}]}}` || a[spans.AttrOutputMimeType] != spans.MimeJSON {
		t.Errorf("output: %q %q", a[spans.AttrOutputValue], a[spans.AttrOutputMimeType])
	}
	if a["mcptest.test.cache_hit"] != true || byName(t, tree, "judged").Attributes["mcptest.test.cache_hit"] != false {
		t.Errorf("cache_hit: %v", a["mcptest.test.cache_hit"])
	}
	if _, ok := byName(t, tree, "later").Attributes[spans.AttrInputValue]; ok {
		t.Error("a skipped test has an input")
	}

	// A truncated frame is text; an answer over the cap is cut to text;
	// without a response the last frame received is the output.
	big := `"` + strings.Repeat("é", spans.MaxValueBytes) + `"`
	run := &report.Run{RunID: "io", Tests: []report.Test{{ID: "t", Name: "t", Status: report.StatusPassed,
		Frames: []report.Frame{
			{Direction: "send", Data: json.RawMessage(`"{\"jsonrpc\":\"2.0\",\"method\":\"tools/ca"`), Truncated: true},
			{Direction: "recv", Data: json.RawMessage(big)},
		}}}}
	a = spans.Build(run)[1].Attributes
	// An envelope the report kept as text (too large) is text.
	cut := &report.Run{RunID: "cut", Tests: []report.Test{{ID: "t", Name: "t", Status: report.StatusFailed,
		Response: json.RawMessage(`"{\"result\":{\"content\":[{\"ty"`)}}}
	if c := spans.Build(cut)[1].Attributes; c[spans.AttrOutputValue] != `{"result":{"content":[{"ty` || c[spans.AttrOutputMimeType] != spans.MimeText {
		t.Errorf("envelope kept as text: %q %q", c[spans.AttrOutputValue], c[spans.AttrOutputMimeType])
	}
	if a[spans.AttrInputValue] != `{"jsonrpc":"2.0","method":"tools/ca` || a[spans.AttrInputMimeType] != spans.MimeText {
		t.Errorf("truncated input: %q %q", a[spans.AttrInputValue], a[spans.AttrInputMimeType])
	}
	out := a[spans.AttrOutputValue].(string)
	if len(out) > spans.MaxValueBytes || len(out) < spans.MaxValueBytes-2 || !strings.HasPrefix(out, `"éé`) ||
		a[spans.AttrOutputMimeType] != spans.MimeText || strings.ContainsRune(out, '\uFFFD') {
		t.Errorf("oversized output: %d bytes, %q, ends %q", len(out), a[spans.AttrOutputMimeType], out[len(out)-4:])
	}
}

// A compliance check exchanges several messages: its input and output are
// the last request it judged and that request's answer, not the
// handshake, nor a ping sent after the probe.
func TestExchangeOfACheck(t *testing.T) {
	frame := func(dir, data string) report.Frame { return report.Frame{Direction: dir, Data: json.RawMessage(data)} }
	run := &report.Run{RunID: "check", Tests: []report.Test{{ID: "c", Name: "c", Status: report.StatusFailed,
		Check: &report.Check{ID: "P01", Severity: "SHOULD"},
		Frames: []report.Frame{
			frame("send", `{"id":1,"jsonrpc":"2.0","method":"initialize","params":{}}`),
			frame("recv", `{"jsonrpc":"2.0","id":1,"result":{}}`),
			frame("send", `{"jsonrpc":"2.0","method":"notifications/initialized"}`),
			frame("send", `{"id":2,"jsonrpc":"2.0","method":"prompts/get","params":{"name":"x"}}`),
			frame("recv", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`),
			frame("recv", `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no"}}`),
			frame("send", `{"id":3,"jsonrpc":"2.0","method":"ping"}`),
			frame("recv", `{"jsonrpc":"2.0","id":3,"result":{}}`),
		}}}}
	a := spans.Build(run)[1].Attributes
	if a[spans.AttrInputValue] != `{"id":2,"jsonrpc":"2.0","method":"prompts/get","params":{"name":"x"}}` ||
		a[spans.AttrOutputValue] != `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no"}}` {
		t.Errorf("input %v\noutput %v", a[spans.AttrInputValue], a[spans.AttrOutputValue])
	}
}

// Every attribute key outside mcptest.* is a key of the OpenInference
// semantic conventions, and every span kind and mime type one of theirs,
// as the npm package @arizeai/openinference-semantic-conventions exports
// them.
func TestOpenInferenceConventions(t *testing.T) {
	conv := spanstest.LoadConventions(t)
	for name, run := range map[string]*report.Run{"warning": spanstest.WarningRun(), "sample": reporttest.Sample(), "agent": spanstest.AgentRun(), "evals": reporttest.Evals()} {
		for _, sp := range spans.Build(run) {
			if !conv.SpanKinds[sp.Kind] || sp.Attributes[spans.AttrSpanKind] != sp.Kind {
				t.Errorf("%s: %s kind %q, attribute %v", name, sp.Name, sp.Kind, sp.Attributes[spans.AttrSpanKind])
			}
			for k, v := range sp.Attributes {
				if strings.HasPrefix(k, "mcptest.") {
					continue
				}
				if !conv.Allows(k) {
					t.Errorf("%s: %s attribute %q is not an OpenInference convention", name, sp.Name, k)
				}
				if strings.HasSuffix(k, ".mime_type") && !conv.MimeTypes[v.(string)] {
					t.Errorf("%s: %s = %q is not an OpenInference mime type", name, k, v)
				}
			}
		}
	}
	if !conv.ResourceAttributes[spans.AttrProjectName] {
		t.Errorf("%s is not an OpenInference resource attribute", spans.AttrProjectName)
	}
}

// A merged report that lacks shards says so on the run span.
func TestPartialRun(t *testing.T) {
	run := spanstest.WarningRun()
	run.Partial = &report.Partial{MissingShards: []int{2, 3}, ShardTotal: 4}
	a := spans.Build(run)[0].Attributes
	if a["mcptest.run.partial"] != true || a["mcptest.run.shard.total"] != 4 || !slices.Equal(a["mcptest.run.missing_shards"].([]int), []int{2, 3}) {
		t.Errorf("partial run attributes: %v", a)
	}
	if _, ok := spans.Build(spanstest.WarningRun())[0].Attributes["mcptest.run.partial"]; ok {
		t.Error("a whole run is marked partial")
	}
}

// A run stopped by a signal says so on the run span, which is not OK.
func TestInterruptedRun(t *testing.T) {
	run := spanstest.OnlyWarning()
	run.ExitCode = report.ExitInterrupted
	run.Errors = []report.RunError{{Source: report.ErrorSourceInterrupt, Message: "interrupted by SIGINT"}}
	root := spans.Build(run)[0]
	if root.Attributes["mcptest.run.interrupted"] != true || root.StatusCode == spans.StatusOK {
		t.Errorf("interrupted run: %s %v", root.StatusCode, root.Attributes)
	}
	if _, ok := spans.Build(spanstest.OnlyWarning())[0].Attributes["mcptest.run.interrupted"]; ok {
		t.Error("a finished run is marked interrupted")
	}
}

// An entry that ran several checks names the ones it broke; the span is
// an error, because one of them is a MUST.
func TestWildcardEntry(t *testing.T) {
	sp := spans.Build(spanstest.WildcardRun())[1]
	if !slices.Equal(sp.Attributes["mcptest.test.failed_checks"].([]string), []string{"J06", "P01"}) || sp.StatusCode != spans.StatusError {
		t.Errorf("wildcard entry span: %s %v", sp.StatusCode, sp.Attributes)
	}
}
