package evaltext

import (
	"strconv"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Property is one name and value, for formats that hold flat properties
// (JUnit); values are machine values: scores on 0..1, costs in dollars.
type Property struct {
	Name, Value string
}

// Properties flattens a grade into properties named prefix + "score",
// prefix + "criterion.NAME.score", prefix + "juror.0.model" and so on.
// Scores stay on 0..1; an unknown cost is "unpriced".
func Properties(prefix string, e *report.Eval) []Property {
	var out []Property
	add := func(name, value string) {
		if value != "" {
			out = append(out, Property{prefix + name, value})
		}
	}
	num := failtext.FormatNumber
	add("verdict", Verdict(e))
	add("score", num(e.Score))
	add("threshold", num(e.Threshold))
	if e.Strict {
		add("strict", "true")
	}
	add("display", textsafe.CleanLineTrim(e.Display))
	add("method", Method(e))
	add("form", textsafe.CleanLineTrim(e.Form))
	add("preset", textsafe.CleanLineTrim(e.Preset))
	add("rubric", textsafe.CleanLineTrim(e.Ref))
	add("scorer", textsafe.CleanLineTrim(e.Scorer))
	add("metric", textsafe.CleanLineTrim(e.Metric))
	add("candidate", textsafe.CleanLineTrim(e.Candidate))
	add("judge_model", textsafe.CleanLineTrim(e.JudgeModel))
	if e.Cell != nil {
		add("cell.model", textsafe.CleanLineTrim(e.Cell.Model))
		add("cell.prompt", line(e.Cell.Prompt))
	}
	add("reason", line(e.Reason))
	add("calls", strconv.Itoa(e.Calls))
	add("cached_calls", strconv.Itoa(e.CachedCalls))
	add("cached", strconv.FormatBool(e.Cached))
	if e.CostUSD != nil {
		add("cost_usd", num(*e.CostUSD))
	} else {
		add("cost_usd", "unpriced")
	}
	for _, c := range e.Criteria {
		p := "criterion." + textsafe.CleanLineTrim(c.Name) + "."
		if c.Score != nil {
			add(p+"score", num(*c.Score))
		}
		add(p+"threshold", num(c.Threshold))
		add(p+"verdict", verdict(c.Passed))
		if c.Skipped {
			add(p+"skipped", "true")
		}
		if c.Required {
			add(p+"required", "true")
		}
		if c.Guard {
			add(p+"guard", "true")
		}
		add(p+"reason", line(c.Reason))
		if c.Evidence != "" {
			add(p+"evidence", line(c.Evidence))
			add(p+"evidence_found", strconv.FormatBool(c.EvidenceFound))
		}
	}
	add("tree_path", Path(e))
	if j := e.Jury; j != nil {
		add("jury.kind", textsafe.CleanLineTrim(j.Kind))
		add("jury.size", strconv.Itoa(j.Size))
		add("jury.abstained", strconv.Itoa(j.Abstained))
		add("jury.pass_fraction", num(j.PassFraction))
		if j.Alpha != nil {
			add("jury.alpha", num(*j.Alpha))
		}
		add("jury.escalated", strconv.FormatBool(Escalated(e)))
	}
	for _, j := range e.Jurors {
		p := "juror." + strconv.Itoa(j.Index) + "."
		add(p+"model", textsafe.CleanLineTrim(j.Model))
		if j.Abstained {
			add(p+"verdict", "abstained")
			add(p+"error", line(j.Error))
			continue
		}
		add(p+"verdict", verdict(j.Passed))
		if j.Score != nil {
			add(p+"score", num(*j.Score))
		}
		if j.CostUSD != nil {
			add(p+"cost_usd", num(*j.CostUSD))
		}
	}
	return out
}
