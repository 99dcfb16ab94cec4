package main

import (
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/evaltext"
	"github.com/mcptest/mcptest/sdk/report"
)

// evalPairs is a grade as a YAML mapping for a diagnostic block: scores
// on 0..1 (display has the rubric's scale), the verdict and how it was
// reached, the criteria, the tree walk, the jury and each juror, calls,
// cache hits and the cost (null when unpriced).
func evalPairs(e *report.Eval) []kv {
	pairs := []kv{{"verdict", evaltext.Verdict(e)}, {"score", e.Score}, {"threshold", e.Threshold}}
	add := func(k string, v any) {
		if s, ok := v.(string); ok && s == "" {
			return
		}
		pairs = append(pairs, kv{k, v})
	}
	if e.Strict {
		add("strict", true)
	}
	add("display", e.Display)
	add("method", evaltext.Method(e))
	add("form", e.Form)
	add("preset", e.Preset)
	add("rubric", e.Ref)
	add("scorer", e.Scorer)
	add("metric", e.Metric)
	add("judge_model", e.JudgeModel)
	if e.Cell != nil {
		add("cell", []kv{{"model", e.Cell.Model}, {"prompt", e.Cell.Prompt}})
	}
	add("reason", e.Reason)
	if len(e.Criteria) > 0 {
		list := make([]any, len(e.Criteria))
		for i, c := range e.Criteria {
			cp := []kv{{"name", c.Name}, {"weight", c.Weight}}
			if c.Score != nil {
				cp = append(cp, kv{"score", *c.Score})
			}
			cp = append(cp, kv{"threshold", c.Threshold}, kv{"passed", c.Passed})
			for _, f := range []struct {
				k  string
				on bool
			}{{"required", c.Required}, {"guard", c.Guard}, {"skipped", c.Skipped}, {"cached", c.Cached}} {
				if f.on {
					cp = append(cp, kv{f.k, true})
				}
			}
			if c.Reason != "" {
				cp = append(cp, kv{"reason", c.Reason})
			}
			if c.Evidence != "" {
				cp = append(cp, kv{"evidence", c.Evidence}, kv{"evidence_found", c.EvidenceFound})
			}
			list[i] = cp
		}
		add("criteria", list)
	}
	add("tree_path", evaltext.Path(e))
	if j := e.Jury; j != nil {
		jp := []kv{{"kind", j.Kind}, {"size", j.Size}, {"abstained", j.Abstained}, {"pass_fraction", j.PassFraction}, {"alpha", nil},
			{"escalated", evaltext.Escalated(e)}}
		if j.Alpha != nil {
			jp[4].val = *j.Alpha
		}
		add("jury", jp)
	}
	if len(e.Jurors) > 0 {
		list := make([]any, len(e.Jurors))
		for i, j := range e.Jurors {
			jp := []kv{{"index", j.Index}, {"model", j.Model}}
			if j.Abstained {
				jp = append(jp, kv{"verdict", "abstained"}, kv{"error", j.Error})
			} else {
				jp = append(jp, kv{"verdict", evaltext.Verdict(&report.Eval{Passed: j.Passed})})
				if j.Score != nil {
					jp = append(jp, kv{"score", *j.Score})
				}
			}
			if j.Cached {
				jp = append(jp, kv{"cached", true})
			}
			if j.CostUSD != nil {
				jp = append(jp, kv{"cost_usd", *j.CostUSD})
			}
			list[i] = jp
		}
		add("jurors", list)
	}
	add("calls", e.Calls)
	if e.CachedCalls > 0 {
		add("cached_calls", e.CachedCalls)
	}
	if e.Cached {
		add("cached", true)
	}
	if e.CostUSD != nil {
		add("cost_usd", *e.CostUSD)
	} else {
		add("cost_usd", nil)
	}
	return pairs
}

// evalMessage says why a failed eval failed, on one line.
func evalMessage(e *report.Eval) string {
	s := "eval score " + evaltext.Score(e) + " below the threshold " + evaltext.Threshold(e)
	if e.Score >= e.Threshold {
		s = "eval failed at score " + evaltext.Score(e)
	}
	if r := strings.TrimSpace(e.Reason); r != "" {
		s += ": " + r
	}
	return s
}

// runEvalComments are the closing comments about grades: the run's cost,
// its trials and each flaky test.
func runEvalComments(run *report.Run) string {
	var b strings.Builder
	if t := evaltext.Trials(run.Trials); t != "" {
		b.WriteString(comment(t))
		for i := range run.Trials.Tests {
			if tt := &run.Trials.Tests[i]; !tt.PassHatK {
				b.WriteString(comment("trials of " + tt.Name + ": " + evaltext.TrialTest(tt)))
			}
		}
	}
	if c := evaltext.Costs(run.Costs); c != "" {
		b.WriteString(comment(c))
	}
	return b.String()
}
