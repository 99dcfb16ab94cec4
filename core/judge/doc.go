// Package judge is mcptest's rubric engine: it grades a candidate (a
// fixed response, or a live agent run as a whole) against a rubric with
// judge models, and returns the grade as a report.Eval.
//
// The API, in the order a caller meets it:
//
//   - Resolve turns a suite's rubric (free-form text, weighted criteria, a
//     decision tree, a { ref } to the rubrics block with inline threshold
//     and strict overrides, a { preset } with appended criteria) into a
//     Resolved rubric; SpecOf does that for an evals entry and adds its
//     judge block (model, jury, panel) to make a Spec.
//   - New builds an Engine from Options: a ModelSource (RouterSource
//     reaches core/models' router, like agent tests do), the default
//     judge model (DefaultModel: MCPTEST_JUDGE_MODEL, else the first
//     family with a key), the verdict cache (core/judge/verdictcache),
//     the run's --max-cost cap (core/judge/costcap), the run's redactor and
//     the --show-judging writer.
//   - Engine.Grade grades one Candidate; Engine.Metric grades one agent
//     eval metric (MetricSpecs lists an agent test's); Engine.Explain is
//     the dry run (--explain): rubric, candidate, judge models, projected
//     calls and cost, rendered prompts, and no model call.
//
// How a grade is made: one judge call per criterion, per tree question on
// the walked path, or one for free-form text, each asking for the strict
// JSON verdict of internal/judgereply. A reply that is not that JSON is
// retried once with a repair instruction; if it still is not, a single
// judge's grade fails with a *ReplyError (ErrReply) carrying the masked
// excerpt, and a juror abstains. Jurors and panel seats grade the whole
// rubric each; see Engine.Grade and docs/rubrics.md for how they combine.
//
// Choices worth knowing: seats (jurors, panel models) grade one after
// another, so cassettes and scripted fakes see a stable order; a criteria
// rubric whose every criterion was skipped by when: fails (never a
// vacuous pass); a guard counts as 1 - its score in the aggregate and
// passes when that complement reaches its threshold; every judge call has
// temperature 0 (none for OpenAI reasoning models), a 512-token budget
// and a time bound.
//
// Errors callers test: ErrDeferred (no key, or a multi-turn metric on a
// single-prompt run: report the test deferred), ErrMaxCost and
// ErrUnpriced (the cap stopped a call before it was sent), ErrReply,
// ErrRubric.
package judge
