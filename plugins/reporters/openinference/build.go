package main

import (
	"fmt"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// Verdict words, as the spec spells test statuses and verdicts. An errored
// test could not be judged, so it is inconclusive: neither pass nor fail.
const (
	verdictPass         = "pass"
	verdictFail         = "fail"
	verdictSkip         = "skip"
	verdictInconclusive = "inconclusive"
)

// methodWeightedScore names how a judged test reached its verdict: the
// weighted score of its assertions against the test's threshold.
const methodWeightedScore = "weighted_score"

// buildSpans projects run onto its span tree, in output order.
func buildSpans(run *report.Run) []span {
	key := runKey(run)
	trace := traceID(key)
	root := runSpanID(key)
	spans := []span{runSpan(run, trace, root)}
	seen := map[string]int{}
	for i := range run.Tests {
		t := &run.Tests[i]
		id := testSpanID(key, t.ID, seen[t.ID])
		seen[t.ID]++
		spans = append(spans, testSpan(t, trace, id, root))
		if judged(t) {
			spans = append(spans, verdictSpan(t, trace, verdictSpanID(key, id), id))
		}
	}
	return spans
}

// counts tallies the tests by verdict word. They are counted from the
// tests written below the root rather than read from the summary, so the
// totals always agree with the spans in the same file.
func counts(run *report.Run) map[string]int {
	c := map[string]int{}
	for i := range run.Tests {
		c[verdictOf(run.Tests[i].Status)]++
	}
	return c
}

// runSpan is the root. Its status is ERROR when any test failed; OK when
// tests passed and nothing failed, errored or went wrong at the run level;
// UNSET otherwise (nothing was judged, or the run was inconclusive).
func runSpan(run *report.Run, trace, id string) span {
	c := counts(run)
	sp := span{SchemaVersion: schemaVersion, TraceID: trace, SpanID: id, Name: nameRun, SpanKind: kindChain, StatusCode: statusUnset}
	switch {
	case c[verdictFail] > 0:
		sp.StatusCode = statusError
		sp.StatusMessage = fmt.Sprintf("%d of %d tests failed", c[verdictFail], len(run.Tests))
	case c[verdictPass] > 0 && c[verdictInconclusive] == 0 && len(run.Errors) == 0:
		sp.StatusCode = statusOK
	}
	sp.DurationMS = run.DurationMS
	if sp.DurationMS == 0 {
		sp.DurationMS = run.Summary.DurationMS
	}
	a := map[string]any{
		"mcptest.run.id":           run.RunID,
		"mcptest.version":          run.Tool.Version,
		"mcptest.run.total":        len(run.Tests),
		"mcptest.run.passed":       c[verdictPass],
		"mcptest.run.failed":       c[verdictFail],
		"mcptest.run.skipped":      c[verdictSkip],
		"mcptest.run.inconclusive": c[verdictInconclusive],
		"mcptest.run.exit_code":    run.ExitCode,
	}
	setTime(a, "mcptest.run.started_at", run.StartedAt)
	setTime(a, "mcptest.run.finished_at", run.FinishedAt)
	setStrings(a, "mcptest.run.suites", run.Suites)
	var servers, errs []string
	for _, s := range run.Servers {
		servers = append(servers, s.Name)
	}
	setStrings(a, "mcptest.run.servers", servers)
	for _, e := range run.Errors {
		who := e.Source
		if e.Name != "" {
			who += " " + e.Name
		}
		errs = append(errs, who+": "+e.Message)
	}
	setStrings(a, "mcptest.run.errors", errs)
	if run.Shard != nil {
		a["mcptest.run.shard.index"] = run.Shard.Index
		a["mcptest.run.shard.total"] = run.Shard.Total
	}
	sp.Attributes = a
	return sp
}

// testSpan is one test under the root.
func testSpan(t *report.Test, trace, id, parent string) span {
	verdict := verdictOf(t.Status)
	sp := span{SchemaVersion: schemaVersion, TraceID: trace, SpanID: id, ParentSpanID: &parent,
		Name: nameTest, SpanKind: kindChain, StatusCode: statusOf(verdict), DurationMS: t.DurationMS}
	if sp.StatusCode == statusError {
		sp.StatusMessage = failureMessage(t)
	}
	a := map[string]any{
		"mcptest.test.id":     t.ID,
		"mcptest.test.name":   t.Name,
		"mcptest.test.status": verdict,
	}
	setString(a, "mcptest.test.file", t.File)
	setInt(a, "mcptest.test.line", t.Line)
	setInt(a, "mcptest.test.column", t.Col)
	setString(a, "mcptest.test.block", t.Block)
	setString(a, "mcptest.test.server", t.Server)
	setString(a, "mcptest.test.tool", t.Tool)
	setStrings(a, "mcptest.test.tags", t.Tags)
	setString(a, "mcptest.test.protocol_version", t.ProtocolVersion)
	if t.Score != nil {
		a["mcptest.test.score"] = *t.Score
	}
	if t.Threshold != nil {
		a["mcptest.test.threshold"] = *t.Threshold
	}
	if t.Check != nil {
		setString(a, "mcptest.test.rule_id", t.Check.ID)
		setString(a, "mcptest.test.rule_title", t.Check.Title)
		setString(a, "mcptest.test.rule_severity", t.Check.Severity)
	}
	if t.Error != nil {
		setString(a, "mcptest.test.error.kind", t.Error.Kind)
		setString(a, "mcptest.test.error.message", t.Error.Message)
	}
	if len(t.Assertions) > 0 {
		a["mcptest.test.assertions.total"] = len(t.Assertions)
		a["mcptest.test.assertions.failed"] = len(failedAssertions(t))
	}
	sp.Attributes = a
	return sp
}

// judged reports tests that carry a verdict worth its own evaluator span:
// those scored against a threshold. The report sets Score only for them.
func judged(t *report.Test) bool {
	return t.Score != nil && t.Status != report.StatusSkipped
}

// verdictSpan is the evaluator span under a judged test. The report does
// not time scoring on its own, so its duration is 0.
func verdictSpan(t *report.Test, trace, id, parent string) span {
	verdict := verdictOf(t.Status)
	sp := span{SchemaVersion: schemaVersion, TraceID: trace, SpanID: id, ParentSpanID: &parent,
		Name: nameVerdict, SpanKind: kindEvaluator, StatusCode: statusOf(verdict)}
	a := map[string]any{
		"mcptest.verdict.verdict": verdict,
		"mcptest.verdict.method":  methodWeightedScore,
		"mcptest.verdict.score":   *t.Score,
	}
	if t.Threshold != nil {
		a["mcptest.verdict.threshold"] = *t.Threshold
	}
	if sp.StatusCode == statusError {
		sp.StatusMessage = failureMessage(t)
		if t.Threshold != nil && *t.Score < *t.Threshold {
			sp.StatusMessage = fmt.Sprintf("score %g is below the threshold %g", *t.Score, *t.Threshold)
		}
	}
	// The per-assertion scores that make up the weighted score, as two
	// aligned arrays (OpenTelemetry attribute arrays hold one type).
	var matchers []string
	var scores []float64
	for _, as := range t.Assertions {
		if as.Score != nil {
			matchers = append(matchers, as.Matcher)
			scores = append(scores, *as.Score)
		}
	}
	if len(scores) > 0 {
		a["mcptest.verdict.assertion_matchers"] = matchers
		a["mcptest.verdict.assertion_scores"] = scores
	}
	sp.Attributes = a
	return sp
}

// verdictOf maps a test status to the spec's verdict words.
func verdictOf(st report.Status) string {
	switch st {
	case report.StatusPassed, report.StatusWarned: // a warning passes, as the exit code says
		return verdictPass
	case report.StatusFailed:
		return verdictFail
	case report.StatusSkipped:
		return verdictSkip
	}
	return verdictInconclusive
}

// statusOf maps a verdict to its OpenTelemetry status code: OK for a
// pass, ERROR for a fail, UNSET for a skip or an inconclusive verdict.
func statusOf(verdict string) string {
	switch verdict {
	case verdictPass:
		return statusOK
	case verdictFail:
		return statusError
	}
	return statusUnset
}

// failedAssertions returns the assertions that failed or errored.
func failedAssertions(t *report.Test) []*report.Assertion {
	var out []*report.Assertion
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status == report.StatusFailed || a.Status == report.StatusErrored {
			out = append(out, a)
		}
	}
	return out
}

// failureMessage says in one line why a test failed.
func failureMessage(t *report.Test) string {
	failed := failedAssertions(t)
	switch {
	case len(failed) > 0 && failed[0].Message != "":
		return failed[0].Message
	case t.Check != nil && t.Check.Title != "":
		return t.Check.Title
	case len(failed) > 0:
		return fmt.Sprintf("%s failed on %s", failed[0].Matcher, failed[0].Target)
	}
	return "test failed"
}

// The set helpers leave empty values out, so spans carry only what the
// report actually knows.

func setString(a map[string]any, k, v string) {
	if v != "" {
		a[k] = v
	}
}

func setInt(a map[string]any, k string, v int) {
	if v != 0 {
		a[k] = v
	}
}

func setStrings(a map[string]any, k string, v []string) {
	if len(v) > 0 {
		a[k] = v
	}
}

func setTime(a map[string]any, k string, v time.Time) {
	if !v.IsZero() {
		a[k] = v.UTC().Format(time.RFC3339Nano)
	}
}
