package spans

import (
	"strconv"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/sdk/report"
)

// maxSpanText caps a reason, a prompt or a cited span on a verdict span;
// the JSON report keeps the grade's full (bounded) text.
const maxSpanText = 4 << 10

// evalVerdictSpan is the evaluator span of a grade: a graded test's (a
// nil assertion) or a judged assertion's. Its attributes:
//
//   - mcptest.verdict.verdict (pass or fail), method (single, jury,
//     panel, scorer or metric), score and threshold on 0..1, display on
//     the rubric's scale;
//   - mcptest.verdict.escalated: true when the graders did not agree (a
//     jury or panel split, or a juror abstained), which is when a person
//     should look (evaltext.Escalated);
//   - the grader (judge_model, preset, rubric, scorer, metric), the
//     matrix cell, the reason, the tree walk, calls, cache hits and the
//     cost (absent when unpriced, with cost_known false);
//   - the criteria and the jurors flattened by index as OpenInference
//     flattens lists (mcptest.verdict.criteria.0.score,
//     mcptest.verdict.jurors.1.model), plus the jurors' models,
//     providers and verdicts as aligned string arrays;
//   - the jury's size, abstentions, consensus, aggregate, tie break, pass
//     fraction and Krippendorff's alpha (absent when undefined).
func evalVerdictSpan(e *report.Eval, a *report.Assertion, trace, id, parent string) Span {
	verdict := VerdictFail
	if e.Passed {
		verdict = VerdictPass
	}
	sp := Span{TraceID: trace, SpanID: id, ParentSpanID: parent, Name: NameVerdict, Kind: KindEvaluator, StatusCode: statusOf(verdict)}
	if sp.StatusCode == StatusError {
		sp.StatusMessage = "score " + evaltext.Number(e.Score) + " below the threshold " + evaltext.Number(e.Threshold)
		if e.Score >= e.Threshold {
			sp.StatusMessage = "failed at score " + evaltext.Number(e.Score)
		}
		if e.Reason != "" {
			sp.StatusMessage += ": " + cut(e.Reason)
		}
	}
	at := map[string]any{
		AttrSpanKind:                 KindEvaluator,
		"mcptest.verdict.verdict":    verdict,
		"mcptest.verdict.method":     evaltext.Method(e),
		"mcptest.verdict.score":      e.Score,
		"mcptest.verdict.threshold":  e.Threshold,
		"mcptest.verdict.escalated":  evaltext.Escalated(e),
		"mcptest.verdict.calls":      e.Calls,
		"mcptest.verdict.cached":     e.Cached,
		"mcptest.verdict.cost_known": e.CostUSD != nil,
	}
	if e.Strict {
		at["mcptest.verdict.strict"] = true
	}
	if e.CostUSD != nil {
		at["mcptest.verdict.cost_usd"] = *e.CostUSD
	}
	setInt(at, "mcptest.verdict.cached_calls", e.CachedCalls)
	for k, v := range map[string]string{
		"display": e.Display, "form": e.Form, "preset": e.Preset, "rubric": e.Ref, "scorer": e.Scorer, "metric": e.Metric,
		"candidate": e.Candidate, "judge_model": e.JudgeModel, "aggregation": e.Aggregation, "reason": cut(e.Reason),
		"prompt": cut(e.Prompt), "response": cut(e.Response), "tree_path": cut(evaltext.Path(e)),
	} {
		setString(at, "mcptest.verdict."+k, v)
	}
	if e.Scale != nil {
		setString(at, "mcptest.verdict.scale", e.Scale.Kind)
	}
	if c := e.Cell; c != nil {
		setString(at, "mcptest.verdict.cell.model", c.Model)
		setString(at, "mcptest.verdict.cell.prompt", cut(c.Prompt))
	}
	if a != nil {
		at["mcptest.verdict.assertion_index"] = a.Index
		setString(at, "mcptest.verdict.assertion_target", a.Target)
		setString(at, "mcptest.verdict.assertion_matcher", a.Matcher)
	}
	for i, c := range e.Criteria {
		p := "mcptest.verdict.criteria." + strconv.Itoa(i) + "."
		at[p+"name"] = c.Name
		at[p+"weight"] = c.Weight
		at[p+"threshold"] = c.Threshold
		at[p+"passed"] = c.Passed
		if c.Score != nil {
			at[p+"score"] = *c.Score
		}
		for k, on := range map[string]bool{"required": c.Required, "guard": c.Guard, "skipped": c.Skipped, "cached": c.Cached} {
			if on {
				at[p+k] = true
			}
		}
		setString(at, p+"reason", cut(c.Reason))
		if c.Evidence != "" {
			at[p+"evidence"] = cut(c.Evidence)
			at[p+"evidence_found"] = c.EvidenceFound
		}
	}
	if n := len(e.Criteria); n > 0 {
		at["mcptest.verdict.criteria.count"] = n
	}
	setJury(at, e)
	return withSpanKind(sp, at)
}

// setJury records the jury (or panel) and each juror.
func setJury(at map[string]any, e *report.Eval) {
	if j := e.Jury; j != nil {
		setString(at, "mcptest.verdict.jury.kind", j.Kind)
		at["mcptest.verdict.jury.size"] = j.Size
		at["mcptest.verdict.jury.abstained"] = j.Abstained
		at["mcptest.verdict.jury.pass_fraction"] = j.PassFraction
		if j.Consensus > 0 {
			at["mcptest.verdict.jury.consensus"] = j.Consensus
		}
		setString(at, "mcptest.verdict.jury.aggregate", j.Aggregate)
		setString(at, "mcptest.verdict.jury.tie_break", j.TieBreak)
		if j.Alpha != nil {
			at["mcptest.verdict.jury.alpha"] = *j.Alpha
		}
	}
	if len(e.Jurors) == 0 {
		return
	}
	models := make([]string, len(e.Jurors))
	providers := make([]string, len(e.Jurors))
	verdicts := make([]string, len(e.Jurors))
	for i, j := range e.Jurors {
		p := "mcptest.verdict.jurors." + strconv.Itoa(i) + "."
		v := VerdictFail
		switch {
		case j.Abstained:
			v = "abstained"
		case j.Passed:
			v = VerdictPass
		}
		models[i], providers[i], verdicts[i] = j.Model, j.Provider, v
		at[p+"index"] = j.Index
		at[p+"model"] = j.Model
		setString(at, p+"provider", j.Provider)
		at[p+"verdict"] = v
		if j.Score != nil {
			at[p+"score"] = *j.Score
		}
		if j.CostUSD != nil {
			at[p+"cost_usd"] = *j.CostUSD
		}
		if j.Cached {
			at[p+"cached"] = true
		}
		setString(at, p+"reason", cut(j.Reason))
		setString(at, p+"error", cut(j.Error))
	}
	at["mcptest.verdict.jurors.count"] = len(e.Jurors)
	at["mcptest.verdict.juror_models"] = models
	at["mcptest.verdict.juror_providers"] = providers
	at["mcptest.verdict.juror_verdicts"] = verdicts
}

// withSpanKind sets the attributes of sp.
func withSpanKind(sp Span, at map[string]any) Span {
	sp.Attributes = at
	return sp
}

// cut caps span text.
func cut(s string) string {
	if len(s) <= maxSpanText {
		return s
	}
	// Cut on a rune boundary.
	i := maxSpanText
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}

// evalVerdictSpans builds the evaluator spans of a test below its span
// ts: the test's grade, then each judged assertion's, in order. They sit
// at the end of the test: the report does not time grading on its own.
func evalVerdictSpans(t *report.Test, key string, ts *Span) []Span {
	var out []Span
	if t.Eval != nil {
		vs := evalVerdictSpan(t.Eval, nil, ts.TraceID, verdictSpanID(key, ts.SpanID), ts.SpanID)
		out = append(out, vs)
	}
	for i := range t.Assertions {
		a := &t.Assertions[i]
		if a.Eval == nil {
			continue
		}
		id := derive(spanIDBytes, "span/verdict/assertion", key, ts.SpanID, strconv.Itoa(i))
		out = append(out, evalVerdictSpan(a.Eval, a, ts.TraceID, id, ts.SpanID))
	}
	for i := range out {
		out[i].StartUnixNano, out[i].EndUnixNano = ts.EndUnixNano, ts.EndUnixNano
	}
	return out
}

// setTrialAttrs records on a test span which trial it is and how its test
// did over all trials, and on the run span pass@k, pass^k and the flaky
// tests.
func setTrialAttrs(at map[string]any, run *report.Run, t *report.Test) {
	if t.TrialOf == "" {
		return
	}
	at["mcptest.test.trial"] = t.Trial
	at["mcptest.test.trial_of"] = t.TrialOf
	if tt := evaltext.TrialOf(run, t); tt != nil {
		at["mcptest.test.trials.total"] = tt.Trials
		at["mcptest.test.trials.passed"] = tt.Passed
		at["mcptest.test.trials.pass_at_k"] = tt.PassAtK
		at["mcptest.test.trials.pass_hat_k"] = tt.PassHatK
		at["mcptest.test.trials.flaky"] = tt.Flaky
	}
}

// setRunGradeAttrs records the run's trials and costs on the run span.
func setRunGradeAttrs(at map[string]any, run *report.Run) {
	if tr := run.Trials; tr != nil {
		at["mcptest.run.trials.k"] = tr.K
		at["mcptest.run.trials.verdict"] = tr.Pass
		at["mcptest.run.trials.pass_at_k"] = tr.PassAtK
		at["mcptest.run.trials.pass_hat_k"] = tr.PassHatK
		at["mcptest.run.trials.flaky"] = tr.Flaky
		var flaky []string
		for _, tt := range tr.Tests {
			if tt.Flaky {
				flaky = append(flaky, tt.ID)
			}
		}
		setStrings(at, "mcptest.run.trials.flaky_tests", flaky)
	}
	c := run.Costs
	if c == nil {
		return
	}
	at["mcptest.run.cost_usd"] = c.TotalUSD
	at["mcptest.run.judge_calls"] = c.Calls
	at["mcptest.run.judge_calls_cached"] = c.CachedCalls
	if c.MaxUSD != nil {
		at["mcptest.run.max_cost_usd"] = *c.MaxUSD
	}
	if c.Stopped {
		at["mcptest.run.max_cost_stopped"] = true
	}
	if len(c.Suites) > 0 {
		suites := make([]string, len(c.Suites))
		usd := make([]float64, len(c.Suites))
		for i, sc := range c.Suites {
			suites[i], usd[i] = sc.Suite, sc.USD
		}
		at["mcptest.run.cost.suites"] = suites
		at["mcptest.run.cost.suites_usd"] = usd
	}
}
