// Package evaltext turns a grade (report.Eval), a run's costs and its
// trials into cleaned text for the reporters, so every format tells the
// same story about a graded test: its score and threshold (on the
// rubric's scale for people, 0..1 for machines), verdict, criteria with
// their reasons and evidence, the decision-tree walk, the jurors and how
// they agreed, the matrix cell, the judge model, cache hits and the cost.
//
// Everything it returns has been through textsafe; one-line values are
// trimmed and cut to [MaxReasonRunes].
package evaltext

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/failtext"
	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// MaxReasonRunes caps a judge's reason, an error or a cited span.
const MaxReasonRunes = 300

// Grading methods (the verdict span's method attribute and the human
// label): how the verdict was reached.
const (
	MethodSingle = "single"
	MethodJury   = "jury"
	MethodPanel  = "panel"
	MethodScorer = "scorer"
	MethodMetric = "metric"
)

// Method says how e's verdict was reached: an exec scorer, a jury, a
// panel, a built-in agent metric graded by one judge, or a single judge.
func Method(e *report.Eval) string {
	switch {
	case e.Form == "scorer":
		return MethodScorer
	case e.Jury != nil && e.Jury.Kind == "panel":
		return MethodPanel
	case e.Jury != nil:
		return MethodJury
	case e.Form == "metric":
		return MethodMetric
	}
	return MethodSingle
}

// Escalated reports whether a person should look at the verdict because
// the graders did not agree: a jury or panel split (some jurors passed,
// some failed) or at least one juror abstained. A single judge, a scorer
// or a unanimous jury never escalates.
func Escalated(e *report.Eval) bool {
	j := e.Jury
	if j == nil {
		return false
	}
	if j.Abstained > 0 {
		return true
	}
	passed, failed := 0, 0
	for _, ju := range e.Jurors {
		switch {
		case ju.Abstained:
			return true
		case ju.Passed:
			passed++
		default:
			failed++
		}
	}
	if passed+failed > 0 {
		return passed > 0 && failed > 0
	}
	return j.PassFraction > 0 && j.PassFraction < 1
}

// Verdict is "passed" or "failed".
func Verdict(e *report.Eval) string {
	if e.Passed {
		return "passed"
	}
	return "failed"
}

// Number writes a 0..1 value with at most three decimals ("0.8", "0.667").
func Number(v float64) string {
	return failtext.FormatNumber(float64(int64(v*1000+sign(v)*0.5)) / 1000)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// OnScale writes a 0..1 value on e's display scale: "4.2/5" on a 1..5
// likert scale, "75%" on the percent scale, the plain number otherwise.
func OnScale(e *report.Eval, v float64) string {
	s := e.Scale
	if s == nil {
		return Number(v)
	}
	switch s.Kind {
	case "likert":
		if s.Max > s.Min {
			return strconv.FormatFloat(float64(s.Min)+v*float64(s.Max-s.Min), 'f', 1, 64) + "/" + strconv.Itoa(s.Max)
		}
	case "percent":
		return strconv.FormatFloat(100*v, 'f', 0, 64) + "%"
	}
	return Number(v)
}

// Score is the score as a person reads it: the grader's Display when it
// gave one, else the score on the scale; followed by the 0..1 value in
// parentheses when the scale is not 0..1 ("4.2/5 (0.8)").
func Score(e *report.Eval) string {
	s := cmp.Or(textsafe.CleanLineTrim(e.Display), OnScale(e, e.Score))
	if s != Number(e.Score) {
		s += " (" + Number(e.Score) + ")"
	}
	return s
}

// Threshold is the threshold on the scale ("3.8/5"), "1 (strict)" for a
// strict rubric.
func Threshold(e *report.Eval) string {
	if e.Strict {
		return OnScale(e, 1) + " (strict)"
	}
	return OnScale(e, e.Threshold)
}

// Cost writes a price in US dollars, or "unpriced" for nil.
func Cost(usd *float64) string {
	if usd == nil {
		return "unpriced"
	}
	return USD(*usd)
}

// USD writes an amount of dollars with enough decimals for judge calls
// ("$0.0024", "$1.50").
func USD(v float64) string {
	if v != 0 && v < 0.01 && v > -0.01 {
		return "$" + strconv.FormatFloat(v, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

// Grader names who graded: "jury of 3 × claude-sonnet-4-5", "panel of 2
// (claude-sonnet-4-5, claude-haiku-4-5)", "scorer house-style", or the
// judge model.
func Grader(e *report.Eval) string {
	switch Method(e) {
	case MethodScorer:
		return failtext.JoinWords("scorer", e.Scorer)
	case MethodPanel:
		return fmt.Sprintf("panel of %d (%s)", e.Jury.Size, strings.Join(jurorModels(e), ", "))
	case MethodJury:
		// A jury of one model names it once; a matcher's jury may mix
		// models, each juror's named.
		models := jurorModels(e)
		if m := textsafe.CleanLineTrim(e.JudgeModel); m != "" {
			models = []string{m}
		}
		s := fmt.Sprintf("jury of %d", e.Jury.Size)
		switch len(models) {
		case 0:
			return s
		case 1:
			return s + " × " + models[0]
		}
		return s + " (" + strings.Join(models, ", ") + ")"
	}
	return failtext.JoinWords("judge", e.JudgeModel)
}

// jurorModels lists the jurors' models, each once, in juror order.
func jurorModels(e *report.Eval) []string {
	var out []string
	seen := map[string]bool{}
	for _, j := range e.Jurors {
		if m := textsafe.CleanLineTrim(j.Model); m != "" && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// Headline says on one line what the grade was: "eval passed: score
// 4.2/5 (0.8), threshold 3.8/5 · criteria (preset helpfulness) · jury of
// 3 × claude-sonnet-4-5 · 6 calls, 2 cached · $0.0024".
func Headline(e *report.Eval) string {
	what := "eval"
	if e.Metric != "" {
		what = failtext.JoinWords("metric", e.Metric)
	}
	parts := []string{fmt.Sprintf("%s %s: score %s, threshold %s", what, Verdict(e), Score(e), Threshold(e))}
	if Escalated(e) {
		parts[0] += " (graders split: review)"
	}
	form := textsafe.CleanLineTrim(e.Form)
	switch {
	case e.Preset != "":
		form += " (preset " + textsafe.CleanLineTrim(e.Preset) + ")"
	case e.Ref != "":
		form += " (rubric " + textsafe.CleanLineTrim(e.Ref) + ")"
	}
	if form != "" && e.Form != "metric" && e.Form != "scorer" {
		parts = append(parts, form)
	}
	if g := Grader(e); g != "" {
		parts = append(parts, g)
	}
	if c := Cell(e); c != "" {
		parts = append(parts, "cell "+c)
	}
	calls := plural(e.Calls, "call")
	switch {
	case e.Cached:
		calls += ", cached"
	case e.CachedCalls > 0:
		calls += fmt.Sprintf(", %d cached", e.CachedCalls)
	}
	parts = append(parts, calls, Cost(e.CostUSD))
	return strings.Join(parts, " · ")
}

// Cell names a matrix cell ("model claude-haiku-4-5 × prompt terse"), ""
// outside a matrix.
func Cell(e *report.Eval) string {
	if e.Cell == nil {
		return ""
	}
	var parts []string
	if m := textsafe.CleanLineTrim(e.Cell.Model); m != "" {
		parts = append(parts, "model "+m)
	}
	if p := textsafe.CleanLineTrim(e.Cell.Prompt); p != "" {
		parts = append(parts, "prompt "+textsafe.Truncate(p, 80))
	}
	return strings.Join(parts, " × ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// line cleans a reason, an error or a cited span to one capped line.
func line(s string) string {
	return textsafe.Truncate(textsafe.CleanLineTrim(s), MaxReasonRunes)
}
