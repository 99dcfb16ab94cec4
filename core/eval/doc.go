// Package eval runs evals: the entries of a suite's evals block (under
// `mcptest eval`) and the judged metrics of agent tests. It chooses the
// judge model, builds the candidate (a fixed response, or the trace of a
// live agent run), hands both to the rubric engine (core/judge) or to a
// scorer (core/scorer), and keeps judge calls reproducible: each call can
// be recorded into, and replayed from, the model tape of a cassette.
//
// core/run calls it for plan.KindEval tests and agent tests with eval:
// metrics; cmd/mcptest wires it (--explain, --show-judging, --max-cost,
// --judge-model, --agent-model).
package eval
