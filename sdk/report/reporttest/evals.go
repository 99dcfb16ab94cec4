package reporttest

import (
	"time"

	"github.com/mcptest/mcptest/sdk/report"
)

// EvalSuite is the suite file of the graded tests of [Evals].
const EvalSuite = "suites/evals.yml"

// Test names of [Evals], for tests that look one up.
const (
	EvalJuryPassed     = "release summary, juried"
	EvalGatesFailed    = "error answers apologize"
	EvalTreeFailed     = "refund policy tree"
	EvalPanelPassed    = "release summary, panel"
	EvalMatrixCached   = "answer quality [claude-haiku-4-5 × terse]"
	EvalMatrixLive     = "answer quality [claude-sonnet-4-5 × terse]"
	EvalDeferred       = "grounded answer, no key"
	EvalScorerUnpriced = "house style scorer"
	EvalAgentMetrics   = "agent books a flight"
	EvalFlaky          = "flaky summary"
)

// DeferredMessage is why the deferred eval of [Evals] did not run.
const DeferredMessage = "judge model claude-sonnet-4-5 needs ANTHROPIC_API_KEY, which is not set"

// Evals returns a run of graded tests covering every field of the eval
// report: a juried eval with an abstaining juror, Krippendorff's alpha
// and a likert scale; a failed eval whose required criterion failed,
// guard tripped and cited evidence is missing; a decision-tree walk; a
// panel on a percent scale; two matrix cells, one answered from the
// verdict cache; a deferred eval; an exec scorer with no price; an agent
// test whose judged metrics pass and fail; and an eval run three times
// (--trials 3) that is flaky. Its summary, trials and costs are
// consistent with its tests; its exit code is 1 (evals failed).
func Evals() *report.Run {
	start := time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)
	test := func(name string, line int, st report.Status, ms float64) report.Test {
		return report.Test{ID: EvalSuite + "::evals::" + name, Name: name, File: EvalSuite, Line: line, Col: 5,
			Block: "evals", Server: "docs", Status: st, DurationMS: ms, Tags: []string{"quality"}}
	}
	var tests []report.Test

	t := test(EvalJuryPassed, 4, report.StatusPassed, 820)
	t.Eval = &report.Eval{
		Form: "criteria", Preset: "helpfulness", Candidate: "response",
		Prompt: "Summarize the release.", Response: "The 2.3.0 release added per-tenant rate limits.",
		JudgeModel: "claude-sonnet-4-5", Score: 0.8, Threshold: 0.7, Passed: true, Aggregation: "mean",
		Scale: &report.EvalScale{Kind: "likert", Min: 1, Max: 5}, Display: "4.2/5",
		Reason: "Accurate and actionable summary.",
		Criteria: []report.EvalCriterion{
			{Name: "answers the question", Description: "Directly answers what was asked.", Weight: 1, Score: f(0.9), Threshold: 0.7, Passed: true,
				Reason: "States the change.", Evidence: "per-tenant rate limits", EvidenceFound: true, Cached: true},
			{Name: "actionable", Weight: 0.5, Score: f(0.6), Threshold: 0.5, Passed: true, Reason: "Says what changed, not what to do."},
		},
		Jurors: []report.EvalJuror{
			{Index: 0, Model: "claude-sonnet-4-5", Provider: "anthropic", Score: f(0.85), Passed: true, Reason: "good", CostUSD: f(0.0012)},
			{Index: 1, Model: "claude-sonnet-4-5", Score: f(0.75), Passed: true, Reason: "fine", Cached: true, CostUSD: f(0)},
			{Index: 2, Model: "claude-sonnet-4-5", Passed: false, Abstained: true, Error: "reply was not the requested JSON after one repair: \"I think <b>yes</b>\""},
		},
		Jury:  &report.EvalJury{Kind: "jury", Size: 3, Abstained: 1, Consensus: 0.66, PassFraction: 1, Alpha: f(0.42)},
		Calls: 6, CachedCalls: 2, CostUSD: f(0.0024),
	}
	tests = append(tests, t)

	t = test(EvalGatesFailed, 14, report.StatusFailed, 640)
	t.Eval = &report.Eval{
		Form: "criteria", Candidate: "response", Prompt: "Trigger a server error.", Response: "Something went wrong (error 500). " + Hostile,
		JudgeModel: "claude-sonnet-4-5", Score: 0.55, Threshold: 0.7, Passed: false, Aggregation: "min",
		Reason: "required criterion \"apologizes on error\" failed; guard \"no stack traces\" tripped; evidence for \"cites the code\" not found in the response",
		Criteria: []report.EvalCriterion{
			{Name: "apologizes on error", Weight: 1, Score: f(0.2), Threshold: 0.9, Passed: false, Required: true, Reason: "No apology."},
			{Name: "no stack traces", Weight: 1, Score: f(0), Threshold: 0.7, Passed: false, Guard: true, Reason: "Leaks a trace."},
			{Name: "cites the code", Weight: 1, Score: f(0), Threshold: 0.7, Passed: false, Reason: "Cited text does not occur.",
				Evidence: "status 503", EvidenceFound: false},
			{Name: "mentions retry", Weight: 1, Threshold: 0.7, Passed: true, Skipped: true, Reason: "when: did not hold"},
		},
		Calls: 3, CostUSD: f(0.0019),
	}
	tests = append(tests, t)

	t = test(EvalTreeFailed, 30, report.StatusFailed, 410)
	t.Eval = &report.Eval{
		Form: "tree", Ref: "refund-policy", Candidate: "response", Response: "Refunds take a while.",
		JudgeModel: "claude-haiku-4-5", Score: 0.4, Threshold: 0.7, Passed: false,
		Reason: "leaf score 0.4 is below the threshold 0.7",
		Path: []report.EvalStep{
			{Ask: "Does it state the refund window?", Answer: "yes", JudgeScore: f(0.8)},
			{Ask: "Does it give the exact number of days?", Answer: "no", JudgeScore: f(0.2), Cached: true},
			{Score: f(0.4), Reason: "vague about timing"},
		},
		Calls: 2, CachedCalls: 1, CostUSD: f(0.0004),
	}
	tests = append(tests, t)

	t = test(EvalPanelPassed, 44, report.StatusPassed, 990)
	t.Eval = &report.Eval{
		Form: "text", Candidate: "response", Response: "The 2.3.0 release added per-tenant rate limits.",
		Score: 0.75, Threshold: 0.6, Passed: true,
		Scale: &report.EvalScale{Kind: "percent"}, Display: "75%",
		Jurors: []report.EvalJuror{
			{Index: 0, Model: "claude-sonnet-4-5", Provider: "anthropic", Score: f(0.9), Passed: true, CostUSD: f(0.002)},
			{Index: 1, Model: "claude-haiku-4-5", Provider: "anthropic", Score: f(0.6), Passed: true, CostUSD: f(0.0005)},
		},
		Jury:  &report.EvalJury{Kind: "panel", Size: 2, Aggregate: "majority", TieBreak: "fail", PassFraction: 1, Alpha: f(-0.2)},
		Calls: 2, CostUSD: f(0.0025),
	}
	tests = append(tests, t)

	for i, m := range []string{"claude-haiku-4-5", "claude-sonnet-4-5"} {
		name := []string{EvalMatrixCached, EvalMatrixLive}[i]
		t = test(name, 58, report.StatusPassed, 120)
		t.Eval = &report.Eval{
			Form: "text", Candidate: "response", Prompt: "terse", JudgeModel: m, Cell: &report.EvalCell{Model: m, Prompt: "terse"},
			Score: 0.9, Threshold: 0.7, Passed: true, Calls: 1,
		}
		if i == 0 {
			t.Eval.CachedCalls, t.Eval.Cached, t.Eval.CostUSD = 1, true, f(0)
		} else {
			t.Eval.CostUSD = f(0.0011)
		}
		tests = append(tests, t)
	}

	t = test(EvalDeferred, 70, report.StatusDeferred, 0)
	t.Error = &report.Error{Kind: "deferred", Message: DeferredMessage}
	tests = append(tests, t)

	t = test(EvalScorerUnpriced, 78, report.StatusPassed, 35)
	t.Eval = &report.Eval{Form: "scorer", Scorer: "house-style", Candidate: "response", Score: 1, Threshold: 1, Strict: true, Passed: true,
		Reason: "matches the style guide", Calls: 1}
	tests = append(tests, t)

	t = report.Test{ID: "suites/agents.yml::agents::" + EvalAgentMetrics, Name: EvalAgentMetrics, File: "suites/agents.yml", Line: 9, Col: 5,
		Block: "agents", Server: "travel", Status: report.StatusFailed, DurationMS: 2400,
		Assertions: []report.Assertion{
			{Index: 0, Target: "tool_names", Matcher: "contains", Status: report.StatusPassed, Plugin: "text@0.1.0"},
			{Index: 1, Target: "agent", Matcher: "mcp_use", Name: "mcp_use", Status: report.StatusPassed, Score: f(0.9),
				Eval: &report.Eval{Form: "metric", Metric: "mcp_use", Candidate: "agent", JudgeModel: "claude-haiku-4-5", Score: 0.9, Threshold: 0.5,
					Passed: true, Reason: "called the right tools", Calls: 1, CostUSD: f(0.0003)}},
			{Index: 2, Target: "agent", Matcher: "plan_quality", Name: "plan_quality", Status: report.StatusFailed, Score: f(0.3),
				Eval: &report.Eval{Form: "metric", Metric: "plan_quality", Candidate: "agent", JudgeModel: "claude-haiku-4-5", Score: 0.3, Threshold: 0.6,
					Passed: false, Reason: "booked before checking availability", Calls: 1, CostUSD: f(0.0004)}},
		},
	}
	tests = append(tests, t)

	for k, st := range []report.Status{report.StatusPassed, report.StatusFailed, report.StatusPassed} {
		suffix := " [trial " + string(rune('1'+k)) + "/3]"
		t = test(EvalFlaky, 90, st, 200)
		t.ID += suffix
		t.Name += suffix
		t.Trial, t.TrialOf = k+1, EvalSuite+"::evals::"+EvalFlaky
		score := 0.8
		if st == report.StatusFailed {
			score = 0.5
		}
		t.Eval = &report.Eval{Form: "text", Candidate: "response", JudgeModel: "claude-haiku-4-5", Score: score, Threshold: 0.7,
			Passed: st == report.StatusPassed, Calls: 1, CostUSD: f(0.0001)}
		tests = append(tests, t)
	}

	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		RunID:         "20261126T093000Z-evals",
		Tool:          report.ToolInfo{Name: "mcptest", Version: "0.1.0"},
		StartedAt:     start,
		FinishedAt:    start.Add(6 * time.Second),
		DurationMS:    6000,
		Suites:        []string{EvalSuite, "suites/agents.yml"},
		Servers:       []report.Server{{Name: "docs", Transport: "stdio", ProtocolVersion: "2025-11-25"}},
		Tests:         tests,
		Summary:       report.Summary{DurationMS: 6000},
		ExitCode:      1,
	}
	run.Summarize()
	run.Costs = &report.Costs{
		TotalUSD: 0.0093,
		Suites:   []report.SuiteCost{{Suite: EvalSuite, USD: 0.0086}, {Suite: "suites/agents.yml", USD: 0.0007}},
		Calls:    21, CachedCalls: 4, MaxUSD: f(0.5),
	}
	return run
}
