package eval

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/plan"
)

// Explain is the dry run of one planned eval: what would be graded and
// asked, with no model called (the engine only renders prompts and reads
// prices).
func (r *Runner) Explain(t *plan.Test) (judge.Explanation, error) {
	spec, err := Spec(t)
	if err != nil {
		return judge.Explanation{}, err
	}
	eng := judge.New(judge.Options{Models: r.Source, DefaultModel: r.DefaultModel, DefaultModelErr: r.DefaultModelErr, Redactor: r.Redactor})
	c := judge.Candidate{Prompt: t.Eval.Prompt(), TrialIndex: 0}
	if resp := t.Eval.Spec.Response; resp != nil {
		c.Response = *resp
	}
	return eng.Explain(spec, c), nil
}

// Projection is the judge calls a plan's evals will make (without
// repairs) and the most they can cost; priced is false when some judge
// model has no known price (cost then counts the priced ones only).
type Projection struct {
	Evals int
	// Scorer counts the evals a scorer grades (one scorer call each, at
	// a cost only the scorer knows).
	Scorer int
	Calls  int
	Cost   float64
	Priced bool
}

// Project adds up the explanations of the plan's evals.
func (r *Runner) Project(p *plan.Plan) Projection {
	pr := Projection{Priced: true}
	for _, t := range p.Tests {
		if t.Kind != plan.KindEval {
			continue
		}
		pr.Evals++
		if t.Eval.Scorer != nil {
			pr.Scorer++
			continue
		}
		x, err := r.Explain(t)
		if err != nil {
			continue
		}
		pr.Calls += x.Calls
		if x.CostUSD == nil {
			pr.Priced = false
			continue
		}
		pr.Cost += *x.CostUSD
	}
	return pr
}

// String is the run header's line: "3 evals, 7 judge calls projected (at
// most $0.0123)".
func (pr Projection) String() string {
	s := fmt.Sprintf("%s, %s projected", plural(pr.Evals, "eval", "evals"), plural(pr.Calls, "judge call", "judge calls"))
	if pr.Scorer > 0 {
		s = fmt.Sprintf("%s, %s and %s projected", plural(pr.Evals, "eval", "evals"), plural(pr.Calls, "judge call", "judge calls"), plural(pr.Scorer, "scorer call", "scorer calls"))
	}
	switch {
	case pr.Calls == 0:
	case pr.Priced:
		s += fmt.Sprintf(" (at most $%.4f)", pr.Cost)
	default:
		s += " (cost unknown: a judge model has no price)"
	}
	return s
}

// WriteExplain prints the dry run of every eval of the plan (mcptest eval
// --explain): for each, its rubric, candidate source, judge model, judge
// calls, projected cost and the rendered judge prompts; then the totals.
// No model is called, no server started.
func (r *Runner) WriteExplain(w io.Writer, p *plan.Plan) error {
	for _, t := range p.Tests {
		if t.Kind != plan.KindEval {
			continue
		}
		fmt.Fprintf(w, "eval %q (%s:%d)\n", t.Name, t.Suite.File, t.Pos.Line)
		if sc := t.Eval.Scorer; sc != nil {
			fmt.Fprintf(w, "  graded by: scorer %s (type %s)\n", sc.Name(), sc.Config.Type)
			fmt.Fprintf(w, "  candidate: %s\n", r.candidateLine(t, judge.Explanation{}))
			fmt.Fprintln(w, "  scorer calls: 1")
			fmt.Fprintln(w, "  projected cost: unknown (the scorer reports its own)")
			fmt.Fprintln(w)
			continue
		}
		x, err := r.Explain(t)
		if err != nil {
			fmt.Fprintf(w, "  cannot be graded: %s\n\n", r.mask(err.Error()))
			continue
		}
		fmt.Fprintf(w, "  rubric: %s\n", rubricLine(x))
		fmt.Fprintf(w, "  candidate: %s\n", r.candidateLine(t, x))
		fmt.Fprintf(w, "  judge: %s\n", judgeLine(t, x))
		fmt.Fprintf(w, "  judge calls: %d\n", x.Calls)
		if x.CostUSD != nil {
			fmt.Fprintf(w, "  projected cost: at most $%.4f\n", *x.CostUSD)
		} else {
			fmt.Fprintln(w, "  projected cost: unknown (no price for the judge model)")
		}
		for i, pr := range x.Prompts {
			fmt.Fprintf(w, "  prompt %d of %d (%s):\n", i+1, len(x.Prompts), pr.Label)
			fmt.Fprintf(w, "    system:\n%s\n", indent(r.mask(pr.System), "      "))
			fmt.Fprintf(w, "    user:\n%s\n", indent(r.mask(pr.User), "      "))
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintf(w, "%s; nothing was sent (--explain)\n", r.Project(p))
	return err
}

func rubricLine(x judge.Explanation) string {
	s := x.Form
	switch {
	case x.Ref != "":
		s += ", ref " + x.Ref
	case x.Preset != "":
		s += ", preset " + x.Preset
	}
	s += fmt.Sprintf(", threshold %.2f", x.Threshold)
	if x.Strict {
		s += ", strict"
	}
	return s
}

func (r *Runner) candidateLine(t *plan.Test, x judge.Explanation) string {
	if t.Eval.Spec.Response != nil {
		return "the fixed response"
	}
	model := r.AgentModel
	if model == "" && len(x.Models) > 0 {
		model = x.Models[0]
	}
	if model == "" {
		model = "(no model: deferred)"
	}
	return fmt.Sprintf("a live agent run of the prompt against server %s, driven by %s", t.Eval.Spec.Server, model)
}

func judgeLine(t *plan.Test, x judge.Explanation) string {
	if len(x.Models) == 0 {
		return "none: " + x.ModelNote
	}
	s := strings.Join(x.Models, ", ")
	j := t.Eval.Spec.Judge
	switch {
	case j != nil && len(j.Panel) > 0 && (t.Eval.Cell == nil || t.Eval.Cell.Model == ""):
		agg := j.Aggregate
		if agg == "" {
			agg = "mean"
		}
		s = fmt.Sprintf("panel of %d (%s; aggregate %s)", x.Seats, s, agg)
	case x.Seats > 1:
		s = fmt.Sprintf("%s, jury of %d", s, x.Seats)
	}
	return s
}

func (r *Runner) mask(s string) string {
	if r.Redactor == nil {
		return s
	}
	return r.Redactor.String(s)
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
