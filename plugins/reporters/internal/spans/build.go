package spans

import (
	"fmt"
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// methodWeightedScore names how a judged test reached its verdict: the
// weighted score of its assertions against the test's threshold.
const methodWeightedScore = "weighted_score"

// counts tallies the tests by verdict word, and the warnings among the
// passes under "warned". They are counted from the tests written below
// the root rather than read from the summary, so the totals always agree
// with the spans in the same file.
func counts(run *report.Run) map[string]int {
	c := map[string]int{}
	for i := range run.Tests {
		t := &run.Tests[i]
		c[VerdictOf(t)]++
		if t.IsWarning() {
			c["warned"]++
		}
	}
	return c
}

// runSpan is the root. Its status is ERROR when any test failed; OK when
// tests passed (warnings included) and nothing failed, errored or went
// wrong at the run level; UNSET otherwise (nothing was judged, or the run
// was inconclusive). Times are set later, once the tests are placed.
func runSpan(run *report.Run, trace, id string) Span {
	c := counts(run)
	sp := Span{TraceID: trace, SpanID: id, Name: NameRun, Kind: KindChain, StatusCode: StatusUnset}
	switch {
	case c[VerdictFail] > 0:
		sp.StatusCode = StatusError
		sp.StatusMessage = fmt.Sprintf("%d of %d tests failed", c[VerdictFail], len(run.Tests))
	case c[VerdictPass] > 0 && c[VerdictInconclusive] == 0 && len(run.Errors) == 0:
		sp.StatusCode = StatusOK
	}
	sp.DurationMS = runDurationMS(run)
	a := map[string]any{
		AttrSpanKind:               KindChain,
		"mcptest.run.id":           run.RunID,
		"mcptest.version":          run.Tool.Version,
		"mcptest.run.total":        len(run.Tests),
		"mcptest.run.passed":       c[VerdictPass],
		"mcptest.run.warned":       c["warned"],
		"mcptest.run.failed":       c[VerdictFail],
		"mcptest.run.skipped":      c[VerdictSkip],
		"mcptest.run.inconclusive": c[VerdictInconclusive],
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
	// A run stopped by a signal is complete but cut short: its unreached
	// tests are skipped, and this says why.
	if run.Interrupted() {
		a["mcptest.run.interrupted"] = true
	}
	// A merged report that lacks shards is not the whole run: say so, and
	// which shards are missing, so a dashboard does not read it as one.
	if p := run.Partial; p != nil {
		a["mcptest.run.partial"] = true
		a["mcptest.run.shard.total"] = p.ShardTotal
		a["mcptest.run.missing_shards"] = append([]int{}, p.MissingShards...)
	}
	setRunGradeAttrs(a, run)
	sp.Attributes = a
	return sp
}

// runDurationMS is the run's recorded duration: its own, the summary's,
// or the span of its start and finish times.
func runDurationMS(run *report.Run) float64 {
	switch {
	case run.DurationMS > 0:
		return run.DurationMS
	case run.Summary.DurationMS > 0:
		return run.Summary.DurationMS
	case !run.StartedAt.IsZero() && run.FinishedAt.After(run.StartedAt):
		return float64(run.FinishedAt.Sub(run.StartedAt).Microseconds()) / 1000
	}
	return 0
}

// testSpan is one test under the root. A warning keeps status OK (the
// run does not fail on it) and says so in mcptest.test.warning.
func testSpan(t *report.Test, trace, id, parent string) Span {
	verdict := VerdictOf(t)
	sp := Span{TraceID: trace, SpanID: id, ParentSpanID: parent,
		Name: NameTest, Kind: KindChain, StatusCode: statusOf(verdict), DurationMS: t.DurationMS}
	if sp.StatusCode == StatusError {
		sp.StatusMessage = FailureMessage(t)
	}
	a := map[string]any{
		AttrSpanKind:             KindChain,
		"mcptest.test.id":        t.ID,
		"mcptest.test.name":      t.Name,
		"mcptest.test.status":    verdict,
		"mcptest.test.cache_hit": t.CacheHit,
	}
	if t.IsWarning() {
		a["mcptest.test.warning"] = true
		a["mcptest.test.warning_message"] = FailureMessage(t)
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
	if e := t.Eval; e != nil {
		// An eval's score is its grade's; its verdict span has the rest.
		if t.Score == nil {
			a["mcptest.test.score"] = e.Score
			a["mcptest.test.threshold"] = e.Threshold
		}
		if e.CostUSD != nil {
			a["mcptest.test.cost_usd"] = *e.CostUSD
		}
	}
	if t.Check != nil {
		setString(a, "mcptest.test.rule_id", t.Check.ID)
		setString(a, "mcptest.test.rule_title", t.Check.Title)
		setString(a, "mcptest.test.rule_severity", t.Check.Severity)
	}
	// An entry that ran several checks ("*", a prefix) names the checks
	// it broke: its own rule_id is the pattern.
	var broken []string
	for i := range t.Assertions {
		if as := &t.Assertions[i]; as.Status == report.StatusFailed && as.Check != nil && as.Check.ID != "" {
			broken = append(broken, as.Check.ID)
		}
	}
	setStrings(a, "mcptest.test.failed_checks", broken)
	if t.Error != nil {
		setString(a, "mcptest.test.error.kind", t.Error.Kind)
		setString(a, "mcptest.test.error.message", t.Error.Message)
	}
	if len(t.Assertions) > 0 {
		a["mcptest.test.assertions.total"] = len(t.Assertions)
		a["mcptest.test.assertions.failed"] = len(failedAssertions(t))
	}
	setIO(a, t)
	sp.Attributes = a
	return sp
}

// verdictSpan is the evaluator span under a judged test. The report does
// not time scoring on its own, so it has no duration: it sits at the end
// of its test.
func verdictSpan(t *report.Test, trace, id, parent string) Span {
	verdict := VerdictOf(t)
	sp := Span{TraceID: trace, SpanID: id, ParentSpanID: parent,
		Name: NameVerdict, Kind: KindEvaluator, StatusCode: statusOf(verdict)}
	a := map[string]any{
		AttrSpanKind:              KindEvaluator,
		"mcptest.verdict.verdict": verdict,
		"mcptest.verdict.method":  methodWeightedScore,
		"mcptest.verdict.score":   *t.Score,
	}
	if t.Threshold != nil {
		a["mcptest.verdict.threshold"] = *t.Threshold
	}
	if sp.StatusCode == StatusError {
		sp.StatusMessage = FailureMessage(t)
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

// FailureMessage says in one line why a test failed (or warned).
func FailureMessage(t *report.Test) string {
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
