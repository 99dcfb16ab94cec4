package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// schemaVersion names the shape of every line. It changes only when a
// field changes meaning or goes away; added fields and attributes keep it
// (docs/report-openinference.md lists the additions).
const schemaVersion = "mcptest.dev/openinference/v1"

// line is one line of the export. The fields follow the OTLP span model
// (ids as lowercase hex, status code and message, Unix-nanosecond times)
// so a collector adapter maps them one to one.
type line struct {
	SchemaVersion string `json:"schema_version"`
	TraceID       string `json:"trace_id"`
	SpanID        string `json:"span_id"`
	// ParentSpanID is null for the root span.
	ParentSpanID *string `json:"parent_span_id"`
	Name         string  `json:"name"`
	SpanKind     string  `json:"span_kind"`
	StatusCode   string  `json:"status_code"`
	// StatusMessage is set only with ERROR, as OpenTelemetry requires.
	StatusMessage string  `json:"status_message,omitempty"`
	DurationMS    float64 `json:"duration_ms"`
	// StartTimeUnixNano and EndTimeUnixNano are decimal strings, as
	// OTLP/JSON writes 64-bit integers: a JSON number that large loses
	// digits in most parsers.
	StartTimeUnixNano string `json:"start_time_unix_nano"`
	EndTimeUnixNano   string `json:"end_time_unix_nano"`
	// Attributes are under the mcptest.* namespace, plus the
	// OpenInference keys (openinference.span.kind, input.*, output.*).
	// A map encodes with sorted keys, which keeps the output
	// byte-for-byte stable.
	Attributes map[string]any `json:"attributes"`
}

// lineOf converts a span of the shared tree into a line.
func lineOf(sp *spans.Span) line {
	l := line{
		SchemaVersion: schemaVersion, TraceID: sp.TraceID, SpanID: sp.SpanID, Name: sp.Name,
		SpanKind: sp.Kind, StatusCode: sp.StatusCode, StatusMessage: sp.StatusMessage, DurationMS: sp.DurationMS,
		StartTimeUnixNano: strconv.FormatInt(sp.StartUnixNano, 10),
		EndTimeUnixNano:   strconv.FormatInt(sp.EndUnixNano, 10),
		Attributes:        sp.Attributes,
	}
	if !sp.IsRoot() {
		parent := sp.ParentSpanID
		l.ParentSpanID = &parent
	}
	return l
}

// writeSpans writes the span tree of run as JSONL: the run span first,
// then each test span followed by its verdict span, in report order.
func writeSpans(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	enc := json.NewEncoder(s.Primary)
	enc.SetEscapeHTML(false)
	tree := spans.Build(run)
	for i := range tree {
		if err := enc.Encode(lineOf(&tree[i])); err != nil {
			return fmt.Errorf("encode %s span: %w", tree[i].Name, err)
		}
	}
	return nil
}
