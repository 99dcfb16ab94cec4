package evaltext

import (
	"slices"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Clean returns a copy of e whose every string has been through
// textsafe.Clean (escape sequences and control characters gone) and whose
// reasons, errors and candidate texts are capped, for formats that embed
// the grade as a JSON object (SARIF properties, GitLab, span attributes).
// Scores stay on 0..1. Nil gives nil.
func Clean(e *report.Eval) *report.Eval {
	if e == nil {
		return nil
	}
	c := *e
	long := func(s string) string { return textsafe.Truncate(textsafe.Clean(s), 4*MaxReasonRunes) }
	c.Form, c.Preset, c.Ref, c.Scorer, c.Metric = line(c.Form), line(c.Preset), line(c.Ref), line(c.Scorer), line(c.Metric)
	c.Candidate, c.JudgeModel, c.Aggregation, c.Display = line(c.Candidate), line(c.JudgeModel), line(c.Aggregation), line(c.Display)
	c.Prompt, c.Response, c.Reason = long(c.Prompt), long(c.Response), long(c.Reason)
	if c.Cell != nil {
		cell := report.EvalCell{Model: line(c.Cell.Model), Prompt: long(c.Cell.Prompt)}
		c.Cell = &cell
	}
	if c.Scale != nil {
		sc := *c.Scale
		sc.Kind = line(sc.Kind)
		c.Scale = &sc
	}
	c.Criteria = slices.Clone(c.Criteria)
	for i := range c.Criteria {
		k := &c.Criteria[i]
		k.Name, k.Description, k.Reason, k.Evidence = line(k.Name), long(k.Description), long(k.Reason), long(k.Evidence)
	}
	c.Path = slices.Clone(c.Path)
	for i := range c.Path {
		p := &c.Path[i]
		p.Ask, p.Answer, p.Reason = long(p.Ask), line(p.Answer), long(p.Reason)
	}
	c.Jurors = slices.Clone(c.Jurors)
	for i := range c.Jurors {
		j := &c.Jurors[i]
		j.Model, j.Error, j.Reason = line(j.Model), long(j.Error), long(j.Reason)
	}
	if c.Jury != nil {
		j := *c.Jury
		j.Kind, j.Aggregate, j.TieBreak = line(j.Kind), line(j.Aggregate), line(j.TieBreak)
		c.Jury = &j
	}
	return &c
}
