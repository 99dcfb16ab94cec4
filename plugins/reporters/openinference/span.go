package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// schemaVersion names the shape of every line. It changes only when a
// field changes meaning or goes away; new mcptest.* attributes keep it.
const schemaVersion = "mcptest.dev/openinference/v1"

// The span names, one per level of the tree.
const (
	nameRun     = "mcptest.run"
	nameTest    = "mcptest.test"
	nameVerdict = "mcptest.verdict"
)

// The OpenInference span kinds in use: runs and tests are chains of work,
// verdicts are evaluations of a test.
const (
	kindChain     = "CHAIN"
	kindEvaluator = "EVALUATOR"
)

// The OpenTelemetry status codes.
const (
	statusUnset = "UNSET"
	statusOK    = "OK"
	statusError = "ERROR"
)

// span is one line of the export. The fields follow the OTLP span model
// (ids as lowercase hex, status code and message) so a collector adapter
// maps them one to one; times are durations because the canonical report
// records when the run started but not when each test did.
type span struct {
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
	// Attributes are all under the mcptest.* namespace. A map encodes
	// with sorted keys, which keeps the output byte-for-byte stable.
	Attributes map[string]any `json:"attributes"`
}

// writeSpans writes the span tree of run as JSONL: the run span first,
// then each test span followed by its verdict span, in report order.
func writeSpans(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	enc := json.NewEncoder(s.Primary)
	enc.SetEscapeHTML(false)
	for _, sp := range buildSpans(run) {
		if err := enc.Encode(sp); err != nil {
			return fmt.Errorf("encode %s span: %w", sp.Name, err)
		}
	}
	return nil
}
