package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/plugins/reporters/internal/spans"
	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// render streams events through the plugin over gRPC and returns what it
// wrote to the primary sink; the other sinks must stay empty.
func render(t *testing.T, events []report.Event) string {
	t.Helper()
	return rendertest.Primary(t, newPlugin(), pluginName, events)
}

// finished is the event stream of a run known only by its final report.
var finished = rendertest.Finished

var (
	traceHex = regexp.MustCompile(`^[0-9a-f]{32}$`)
	spanHex  = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

// decode reads out as an OTLP collector does. OTLP/JSON writes ids as hex
// where proto3's JSON mapping (protojson) expects base64, so the ids are
// checked as hex and re-encoded first; everything else goes to protojson
// unchanged, which refuses unknown fields and wrong types.
func decode(t *testing.T, out string) *collectortrace.ExportTraceServiceRequest {
	t.Helper()
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
		t.Fatalf("want one line ending in a newline, got %d lines", strings.Count(out, "\n"))
	}
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for _, rs := range list(doc["resourceSpans"]) {
		for _, ss := range list(rs.(map[string]any)["scopeSpans"]) {
			for _, sp := range list(ss.(map[string]any)["spans"]) {
				m := sp.(map[string]any)
				for key, re := range map[string]*regexp.Regexp{"traceId": traceHex, "spanId": spanHex, "parentSpanId": spanHex} {
					v, ok := m[key]
					if !ok {
						continue
					}
					s, _ := v.(string)
					if !re.MatchString(s) {
						t.Fatalf("%s %q is not lowercase hex of the right length", key, v)
					}
					raw, _ := hex.DecodeString(s)
					m[key] = base64.StdEncoding.EncodeToString(raw)
				}
			}
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var req collectortrace.ExportTraceServiceRequest
	if err := (protojson.UnmarshalOptions{}).Unmarshal(b, &req); err != nil {
		t.Fatalf("protojson refuses the request: %v\n%s", err, out)
	}
	return &req
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// goValue turns an AnyValue back into the Go value the span tree holds.
func goValue(v *commonpb.AnyValue) any {
	switch x := v.Value.(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_IntValue:
		return int(x.IntValue)
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_ArrayValue:
		if len(x.ArrayValue.Values) > 0 {
			if _, ok := x.ArrayValue.Values[0].Value.(*commonpb.AnyValue_IntValue); ok {
				var is []int
				for _, e := range x.ArrayValue.Values {
					is = append(is, int(e.GetIntValue()))
				}
				return is
			}
			if _, ok := x.ArrayValue.Values[0].Value.(*commonpb.AnyValue_DoubleValue); ok {
				var fs []float64
				for _, e := range x.ArrayValue.Values {
					fs = append(fs, e.GetDoubleValue())
				}
				return fs
			}
		}
		var ss []string
		for _, e := range x.ArrayValue.Values {
			ss = append(ss, e.GetStringValue())
		}
		return ss
	}
	return nil
}

func attrMap(kvs []*commonpb.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		m[kv.Key] = goValue(kv.Value)
	}
	return m
}

// checkRequest checks a decoded request against the span tree of run:
// one resource and scope, one shared trace id, parents that resolve,
// times nested, and the same statuses and attributes as the tree.
func checkRequest(t *testing.T, req *collectortrace.ExportTraceServiceRequest, run *report.Run) []*tracepb.Span {
	t.Helper()
	if len(req.ResourceSpans) != 1 || len(req.ResourceSpans[0].ScopeSpans) != 1 {
		t.Fatalf("want one resource with one scope: %v", req)
	}
	rs := req.ResourceSpans[0]
	res := attrMap(rs.Resource.Attributes)
	if res["service.name"] != "mcptest" || res[spans.AttrProjectName] != "mcptest" || res["service.version"] != run.Tool.Version {
		t.Errorf("resource attributes: %v", res)
	}
	if sc := rs.ScopeSpans[0].Scope; sc.Name != "mcptest" || sc.Version != run.Tool.Version {
		t.Errorf("scope: %v", sc)
	}
	got := rs.ScopeSpans[0].Spans
	want := spans.Build(run)
	if len(got) != len(want) {
		t.Fatalf("%d spans, want %d", len(got), len(want))
	}
	byID := map[string]*tracepb.Span{}
	for _, sp := range got {
		if len(sp.TraceId) != 16 || len(sp.SpanId) != 8 {
			t.Errorf("span %s: ids of %d and %d bytes", sp.Name, len(sp.TraceId), len(sp.SpanId))
		}
		if !bytes.Equal(sp.TraceId, got[0].TraceId) {
			t.Errorf("span %s is in another trace", sp.Name)
		}
		if byID[string(sp.SpanId)] != nil {
			t.Errorf("span id %x is used twice", sp.SpanId)
		}
		byID[string(sp.SpanId)] = sp
	}
	wantCode := map[string]tracepb.Status_StatusCode{spans.StatusOK: tracepb.Status_STATUS_CODE_OK,
		spans.StatusError: tracepb.Status_STATUS_CODE_ERROR, spans.StatusUnset: tracepb.Status_STATUS_CODE_UNSET}
	for i, sp := range got {
		w := &want[i]
		if hex.EncodeToString(sp.TraceId) != w.TraceID || hex.EncodeToString(sp.SpanId) != w.SpanID || sp.Name != w.Name {
			t.Errorf("span %d: %s %x, want %s %s", i, sp.Name, sp.SpanId, w.Name, w.SpanID)
		}
		if sp.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
			t.Errorf("span %s kind %v", sp.Name, sp.Kind)
		}
		if sp.Status.GetCode() != wantCode[w.StatusCode] || sp.Status.GetMessage() != w.StatusMessage {
			t.Errorf("span %s status %v, want %s %q", sp.Name, sp.Status, w.StatusCode, w.StatusMessage)
		}
		if sp.StartTimeUnixNano > sp.EndTimeUnixNano {
			t.Errorf("span %s starts after it ends", sp.Name)
		}
		if a := attrMap(sp.Attributes); !reflect.DeepEqual(a, w.Attributes) {
			t.Errorf("span %s attributes differ from the tree:\n got %v\nwant %v", sp.Name, a, w.Attributes)
		}
		if len(sp.ParentSpanId) == 0 {
			if i != 0 {
				t.Errorf("span %d (%s) has no parent", i, sp.Name)
			}
			continue
		}
		p := byID[string(sp.ParentSpanId)]
		if p == nil {
			t.Errorf("span %s: parent %x is not in the request", sp.Name, sp.ParentSpanId)
			continue
		}
		if sp.StartTimeUnixNano < p.StartTimeUnixNano || sp.EndTimeUnixNano > p.EndTimeUnixNano {
			t.Errorf("span %s %d..%d lies outside its parent %s %d..%d", sp.Name, sp.StartTimeUnixNano, sp.EndTimeUnixNano,
				p.Name, p.StartTimeUnixNano, p.EndTimeUnixNano)
		}
	}
	if len(got[0].ParentSpanId) != 0 || got[0].StartTimeUnixNano != uint64(run.StartedAt.UnixNano()) {
		t.Errorf("root: parent %x, start %d", got[0].ParentSpanId, got[0].StartTimeUnixNano)
	}
	return got
}

func TestDecodesAsOTLP(t *testing.T) {
	partial := spanstest.WarningRun()
	partial.Partial = &report.Partial{MissingShards: []int{2, 3}, ShardTotal: 4}
	for name, run := range map[string]*report.Run{"sample": reporttest.Sample(), "warning": spanstest.WarningRun(), "partial": partial, "evals": reporttest.Evals()} {
		t.Run(name, func(t *testing.T) {
			checkRequest(t, decode(t, render(t, finished(run))), run)
		})
	}
}

func TestLiveAndSavedAgree(t *testing.T) {
	live := render(t, reporttest.Events())
	if again := render(t, reporttest.Events()); live != again {
		t.Error("two renders of the same run differ")
	}
	if saved := render(t, finished(reporttest.Sample())); live != saved {
		t.Error("the live run and its saved report render differently")
	}
}

// A run whose only finding is a SHOULD warning is OK throughout; the
// warned test says so in mcptest.test.warning.
func TestWarning(t *testing.T) {
	run := spanstest.OnlyWarning()
	got := checkRequest(t, decode(t, render(t, finished(run))), run)
	for _, sp := range got {
		if sp.Status.GetCode() != tracepb.Status_STATUS_CODE_OK {
			t.Errorf("span %s is %v in a run that only warned", sp.Name, sp.Status.GetCode())
		}
	}
	if a := attrMap(got[2].Attributes); a["mcptest.test.warning"] != true || a["mcptest.test.rule_id"] != "T06" {
		t.Errorf("warned test attributes: %v", a)
	}
}

// Attribute keys outside mcptest.* are OpenInference conventions, read
// from the npm package; the resource adds OpenTelemetry's service keys.
func TestConventions(t *testing.T) {
	conv := spanstest.LoadConventions(t)
	req := decode(t, render(t, finished(spanstest.WarningRun())))
	for _, kv := range req.ResourceSpans[0].Resource.Attributes {
		if !conv.ResourceAttributes[kv.Key] && kv.Key != attrServiceName && kv.Key != attrServiceVersion {
			t.Errorf("resource attribute %q is neither an OpenInference nor a service convention", kv.Key)
		}
	}
	for _, sp := range req.ResourceSpans[0].ScopeSpans[0].Spans {
		for _, kv := range sp.Attributes {
			if !strings.HasPrefix(kv.Key, "mcptest.") && !conv.Attributes[kv.Key] {
				t.Errorf("span %s: attribute %q is not an OpenInference convention", sp.Name, kv.Key)
			}
		}
	}
}

// Values OTLP cannot carry as numbers still make a valid request.
func TestValueEdges(t *testing.T) {
	nan := 0.0
	nan /= nan
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nan, `{"stringValue":"NaN"}`},
		{int64(-5), `{"intValue":"-5"}`},
		{"", `{"stringValue":""}`},
		{false, `{"boolValue":false}`},
		{0.0, `{"doubleValue":0}`},
		{[]string{}, `{"arrayValue":{"values":[]}}`},
		{struct{}{}, `{"stringValue":"{}"}`},
	} {
		b, err := json.Marshal(valueOf(tc.in))
		if err != nil || string(b) != tc.want {
			t.Errorf("valueOf(%#v) = %s (%v), want %s", tc.in, b, err, tc.want)
		}
		var v commonpb.AnyValue
		if err := protojson.Unmarshal(b, &v); err != nil {
			t.Errorf("protojson refuses %s: %v", b, err)
		}
	}
}

func TestRenderWithoutRunFinished(t *testing.T) {
	rendertest.NeedsRunFinished(t, newPlugin(), pluginName)
}
