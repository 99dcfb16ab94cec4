package main

// The types below are the part of the OTLP trace data model this reporter
// writes, with the field names of its JSON encoding (OTLP/JSON). That
// encoding is proto3's JSON mapping with three differences, which these
// types follow: trace and span ids are lowercase hex rather than base64,
// enums are integers, and 64-bit integers are decimal strings.

// exportRequest is an ExportTraceServiceRequest.
type exportRequest struct {
	ResourceSpans []resourceSpans `json:"resourceSpans"`
}

// resourceSpans groups the spans of one resource: mcptest.
type resourceSpans struct {
	Resource   resource     `json:"resource"`
	ScopeSpans []scopeSpans `json:"scopeSpans"`
}

// resource describes what produced the spans.
type resource struct {
	Attributes []keyValue `json:"attributes"`
}

// scopeSpans groups the spans of one instrumentation scope.
type scopeSpans struct {
	Scope scope  `json:"scope"`
	Spans []span `json:"spans"`
}

// scope is an InstrumentationScope.
type scope struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// span is one OTLP span.
type span struct {
	TraceID string `json:"traceId"`
	SpanID  string `json:"spanId"`
	// ParentSpanID is left out for the root span.
	ParentSpanID      string     `json:"parentSpanId,omitempty"`
	Name              string     `json:"name"`
	Kind              int        `json:"kind"`
	StartTimeUnixNano string     `json:"startTimeUnixNano"`
	EndTimeUnixNano   string     `json:"endTimeUnixNano"`
	Attributes        []keyValue `json:"attributes"`
	Status            status     `json:"status"`
}

// spanKindInternal is SPAN_KIND_INTERNAL: mcptest's spans describe work
// inside one process, not a remote call.
const spanKindInternal = 1

// The Status.code values.
const (
	statusCodeUnset = 0
	statusCodeOK    = 1
	statusCodeError = 2
)

// status is a span's Status; a zero code is left out, as proto3 JSON
// leaves out default values.
type status struct {
	Message string `json:"message,omitempty"`
	Code    int    `json:"code,omitempty"`
}

// keyValue is one attribute.
type keyValue struct {
	Key   string   `json:"key"`
	Value anyValue `json:"value"`
}

// anyValue is an AnyValue: exactly one field is set.
type anyValue struct {
	StringValue *string     `json:"stringValue,omitempty"`
	BoolValue   *bool       `json:"boolValue,omitempty"`
	IntValue    *string     `json:"intValue,omitempty"`
	DoubleValue *float64    `json:"doubleValue,omitempty"`
	ArrayValue  *arrayValue `json:"arrayValue,omitempty"`
}

// arrayValue is an ArrayValue.
type arrayValue struct {
	Values []anyValue `json:"values"`
}
