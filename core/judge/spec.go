package judge

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
)

// Default jury figures when the judge block leaves them out.
const (
	// DefaultJurySize is the size of a jury block without size.
	DefaultJurySize = 3
	// DefaultConsensus is the pass fraction of a jury without consensus
	// (or with consensus 0, which would pass any jury and is read as
	// unset).
	DefaultConsensus = 0.5
)

// Spec is what to grade with: the rubric and the judge.
type Spec struct {
	// Rubric is the resolved rubric.
	Rubric *Resolved
	// Model is the judge model; "" for the engine's default.
	Model string
	// JurySize and Consensus describe a jury; JurySize 0 is a single
	// judge.
	JurySize  int
	Consensus float64
	// Panel lists the models of a panel (it wins over a jury); Aggregate
	// is mean, median or majority and TieBreak pass or fail.
	Panel     []string
	Aggregate string
	TieBreak  string
}

// SpecOf builds the spec of an entry of the evals block.
func SpecOf(suite *config.Suite, ev *config.EvalTest) (Spec, error) {
	if ev.Rubric == nil {
		return Spec{}, fmt.Errorf("%w: eval %q has no rubric", ErrRubric, ev.Name)
	}
	r, err := Resolve(suite, ev.Rubric, ev.Threshold)
	if err != nil {
		return Spec{}, fmt.Errorf("eval %q: %w", ev.Name, err)
	}
	return WithJudge(Spec{Rubric: r}, ev.Judge), nil
}

// WithJudge applies a judge block to s.
func WithJudge(s Spec, j *config.Judge) Spec {
	if j == nil {
		return s
	}
	s.Model = j.Model
	if j.Jury != nil {
		s.JurySize, s.Consensus = j.Jury.Size, j.Jury.Consensus
		if s.JurySize <= 0 {
			s.JurySize = DefaultJurySize
		}
		if s.Consensus <= 0 {
			s.Consensus = DefaultConsensus
		}
	}
	s.Panel, s.Aggregate, s.TieBreak = j.Panel, j.Aggregate, j.TieBreak
	if len(s.Panel) > 0 {
		if s.Aggregate == "" {
			s.Aggregate = "mean"
		}
		if s.TieBreak == "" {
			s.TieBreak = "fail"
		}
	}
	return s
}

// seat is one grading of a spec: a juror or a panel model.
type seat struct {
	index int
	model string
}

// seats lists the gradings a spec asks for, with each one's model.
func (e *Engine) seats(s Spec) ([]seat, string, error) {
	if len(s.Panel) > 0 {
		out := make([]seat, len(s.Panel))
		for i, m := range s.Panel {
			out[i] = seat{i, m}
		}
		return out, "panel", nil
	}
	model := s.Model
	if model == "" {
		model = e.opts.DefaultModel
	}
	if model == "" {
		if e.opts.DefaultModelErr != nil {
			return nil, "", e.opts.DefaultModelErr
		}
		return nil, "", &DeferredError{Reason: "no judge model: set " + JudgeModelEnv + " or a provider key"}
	}
	if s.JurySize > 0 {
		out := make([]seat, s.JurySize)
		for i := range out {
			out[i] = seat{i, model}
		}
		return out, "jury", nil
	}
	return []seat{{0, model}}, "", nil
}
