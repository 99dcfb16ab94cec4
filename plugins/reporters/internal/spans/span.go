// Package spans projects a run report onto the span tree that the trace
// exports share: an mcptest.run root, one mcptest.test child per test and
// an mcptest.verdict evaluator under each judged test. The openinference
// reporter writes the tree as its own JSONL lines, the otlp reporter as an
// OTLP/JSON ExportTraceServiceRequest; both read the same [Span] values,
// so the two files always agree on ids, times, statuses and attributes.
package spans

import (
	"github.com/mcptest/mcptest/sdk/report"
)

// The span names, one per level of the tree.
const (
	NameRun     = "mcptest.run"
	NameTest    = "mcptest.test"
	NameVerdict = "mcptest.verdict"
)

// The OpenInference span kinds in use: runs and tests are chains of work,
// verdicts are evaluations of a test.
const (
	KindChain     = "CHAIN"
	KindEvaluator = "EVALUATOR"
)

// The OpenTelemetry status codes, as the OTLP enum spells them without
// its STATUS_CODE_ prefix.
const (
	StatusUnset = "UNSET"
	StatusOK    = "OK"
	StatusError = "ERROR"
)

// Keys from the OpenInference semantic conventions
// (@arizeai/openinference-semantic-conventions). Every attribute outside
// the mcptest.* namespace is one of these; a test checks them against
// the package itself.
const (
	// AttrSpanKind mirrors the span kind: OpenInference tools such as
	// Phoenix read the kind from this attribute, not from a span field.
	AttrSpanKind       = "openinference.span.kind"
	AttrInputValue     = "input.value"
	AttrInputMimeType  = "input.mime_type"
	AttrOutputValue    = "output.value"
	AttrOutputMimeType = "output.mime_type"
	// AttrProjectName is a resource attribute: the project traces are
	// grouped under.
	AttrProjectName = "openinference.project.name"
)

// The mime types of input and output values, as OpenInference names them.
const (
	MimeJSON = "application/json"
	MimeText = "text/plain"
)

// Verdict words, as the export spells test statuses and verdicts. An
// errored test could not be judged, so it is inconclusive: neither pass
// nor fail. A test that failed only a SHOULD requirement is a pass with a
// warning, as the exit code treats it.
const (
	VerdictPass         = "pass"
	VerdictFail         = "fail"
	VerdictSkip         = "skip"
	VerdictInconclusive = "inconclusive"
)

// Span is one span of the tree, independent of how it is written.
type Span struct {
	TraceID string
	SpanID  string
	// ParentSpanID is "" for the root.
	ParentSpanID string
	Name         string
	// Kind is the OpenInference span kind: KindChain or KindEvaluator.
	Kind string
	// StatusCode is StatusUnset, StatusOK or StatusError; StatusMessage
	// is set only with StatusError, as OpenTelemetry requires.
	StatusCode    string
	StatusMessage string
	// StartUnixNano and EndUnixNano bound the span; children lie within
	// their parent and start never exceeds end.
	StartUnixNano int64
	EndUnixNano   int64
	// DurationMS is the duration the report recorded, which the JSONL
	// export keeps as is (the nanosecond bounds are rounded from it).
	DurationMS float64
	// Attributes hold string, int, float64, bool, []string, []int and
	// []float64 values only: the types OpenTelemetry attributes can carry.
	Attributes map[string]any
}

// IsRoot reports whether s is the run span.
func (s *Span) IsRoot() bool { return s.ParentSpanID == "" }

// Build projects run onto its span tree, in output order: the run span
// first, then each test span followed by its agent spans (an agent test's
// loop, model calls and tool calls) and its verdict span, in report order.
func Build(run *report.Run) []Span {
	key := runKey(run)
	trace := traceID(key)
	root := runSpanID(key)
	clock := newClock(run)
	spans := []Span{runSpan(run, trace, root)}
	seen := map[string]int{}
	for i := range run.Tests {
		t := &run.Tests[i]
		id := testSpanID(key, t.ID, seen[t.ID])
		seen[t.ID]++
		ts := testSpan(t, trace, id, root)
		setTrialAttrs(ts.Attributes, run, t)
		clock.placeTest(&ts, t)
		spans = append(spans, ts)
		if t.Agent != nil {
			spans = append(spans, agentSpans(t, key, &ts)...)
		}
		if graded(t) {
			spans = append(spans, evalVerdictSpans(t, key, &ts)...)
		} else if judged(t) {
			vs := verdictSpan(t, trace, verdictSpanID(key, id), id)
			vs.StartUnixNano, vs.EndUnixNano = ts.EndUnixNano, ts.EndUnixNano
			spans = append(spans, vs)
		}
	}
	clock.placeRun(&spans[0], spans[1:])
	return spans
}

// graded reports tests whose grades have evaluator spans of their own:
// an eval (its Eval) or a test with judged assertions. A deferred eval has
// no grade, so no span.
func graded(t *report.Test) bool {
	if t.Status == report.StatusSkipped || t.Status == report.StatusDeferred {
		return false
	}
	if t.Eval != nil {
		return true
	}
	for i := range t.Assertions {
		if t.Assertions[i].Eval != nil {
			return true
		}
	}
	return false
}

// judged reports tests that carry a verdict worth its own evaluator span:
// those scored against a threshold. The report sets Score only for them.
func judged(t *report.Test) bool {
	return t.Score != nil && t.Status != report.StatusSkipped && t.Status != report.StatusDeferred
}

// VerdictOf maps a test to the export's verdict word. A warning (a failed
// SHOULD requirement) is a pass, because it does not fail the run.
func VerdictOf(t *report.Test) string {
	if t.IsWarning() {
		return VerdictPass
	}
	switch t.Status {
	case report.StatusPassed:
		return VerdictPass
	case report.StatusFailed:
		return VerdictFail
	case report.StatusSkipped, report.StatusDeferred:
		// A deferred agent test did not run (no model key): a skip.
		return VerdictSkip
	}
	return VerdictInconclusive
}

// statusOf maps a verdict to its OpenTelemetry status code: OK for a
// pass, ERROR for a fail, UNSET for a skip or an inconclusive verdict.
func statusOf(verdict string) string {
	switch verdict {
	case VerdictPass:
		return StatusOK
	case VerdictFail:
		return StatusError
	}
	return StatusUnset
}
