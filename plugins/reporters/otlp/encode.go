package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// serviceName names mcptest to the trace store: it is the service.name
// resource attribute (without it collectors file the spans under
// "unknown_service"), the OpenInference project and the scope.
const serviceName = "mcptest"

// The OpenTelemetry resource attributes for the service. They are not
// OpenInference keys: OpenTelemetry's own resource conventions define
// them, and every collector and backend reads them.
const (
	attrServiceName    = "service.name"
	attrServiceVersion = "service.version"
)

// writeRequest writes run as one ExportTraceServiceRequest on one line.
func writeRequest(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	enc := json.NewEncoder(s.Primary)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(buildRequest(run)); err != nil {
		return fmt.Errorf("encode otlp request: %w", err)
	}
	return nil
}

// buildRequest converts the run's span tree into an export request with
// one resource and one scope.
func buildRequest(run *report.Run) exportRequest {
	res := map[string]any{attrServiceName: serviceName, spans.AttrProjectName: serviceName}
	if v := run.Tool.Version; v != "" {
		res[attrServiceVersion] = v
	}
	tree := spans.Build(run)
	out := make([]span, 0, len(tree))
	for i := range tree {
		out = append(out, spanOf(&tree[i]))
	}
	return exportRequest{ResourceSpans: []resourceSpans{{
		Resource:   resource{Attributes: attributes(res)},
		ScopeSpans: []scopeSpans{{Scope: scope{Name: serviceName, Version: run.Tool.Version}, Spans: out}},
	}}}
}

// spanOf converts one span of the shared tree.
func spanOf(sp *spans.Span) span {
	st := status{}
	switch sp.StatusCode {
	case spans.StatusOK:
		st.Code = statusCodeOK
	case spans.StatusError:
		st.Code, st.Message = statusCodeError, sp.StatusMessage
	default:
		st.Code = statusCodeUnset
	}
	return span{
		TraceID: sp.TraceID, SpanID: sp.SpanID, ParentSpanID: sp.ParentSpanID,
		Name: sp.Name, Kind: spanKindInternal,
		StartTimeUnixNano: strconv.FormatInt(sp.StartUnixNano, 10),
		EndTimeUnixNano:   strconv.FormatInt(sp.EndUnixNano, 10),
		Attributes:        attributes(sp.Attributes),
		Status:            st,
	}
}

// attributes converts a map into key-value pairs sorted by key, so the
// output is byte-for-byte stable. Values of a type OTLP cannot carry are
// written as text rather than dropped.
func attributes(m map[string]any) []keyValue {
	out := make([]keyValue, 0, len(m))
	for k, v := range m {
		out = append(out, keyValue{Key: k, Value: valueOf(v)})
	}
	slices.SortFunc(out, func(a, b keyValue) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

// valueOf converts one attribute value to an AnyValue.
func valueOf(v any) anyValue {
	switch v := v.(type) {
	case string:
		return anyValue{StringValue: &v}
	case bool:
		return anyValue{BoolValue: &v}
	case int:
		s := strconv.Itoa(v)
		return anyValue{IntValue: &s}
	case int64:
		s := strconv.FormatInt(v, 10)
		return anyValue{IntValue: &s}
	case float64:
		return doubleValue(v)
	case []string:
		vals := make([]anyValue, len(v))
		for i := range v {
			vals[i] = valueOf(v[i])
		}
		return anyValue{ArrayValue: &arrayValue{Values: vals}}
	case []int:
		vals := make([]anyValue, len(v))
		for i := range v {
			vals[i] = valueOf(v[i])
		}
		return anyValue{ArrayValue: &arrayValue{Values: vals}}
	case []float64:
		vals := make([]anyValue, len(v))
		for i := range v {
			vals[i] = doubleValue(v[i])
		}
		return anyValue{ArrayValue: &arrayValue{Values: vals}}
	}
	s := fmt.Sprint(v)
	return anyValue{StringValue: &s}
}

// doubleValue writes a float. JSON has no NaN or infinity; proto3 JSON
// spells them as strings, which encoding/json cannot put in a number
// field, so they become text.
func doubleValue(f float64) anyValue {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		s := strconv.FormatFloat(f, 'g', -1, 64)
		return anyValue{StringValue: &s}
	}
	return anyValue{DoubleValue: &f}
}
