package plan

import (
	"errors"
	"slices"
	"strconv"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/scorer"
)

// KindEval is one cell of an entry of the evals block: a candidate (a
// fixed response, or a live agent run) graded against a rubric by the
// judge, or by a scorer. Only `mcptest eval` plans them (Options.Evals);
// `mcptest run` counts them in Plan.EvalsNotRun.
const KindEval = "eval"

// Eval is a planned eval: one cell of its matrix (the whole eval when it
// has none).
type Eval struct {
	// Spec is the eval as loaded.
	Spec *config.EvalTest
	// Cell is the matrix cell this row grades; nil outside a matrix.
	Cell *EvalCell
	// Server is the eval's server (its live run talks to it; a cassette
	// there replays the judge's calls). A fixed-response eval never
	// starts it.
	Server *config.Server
	// Scorer grades the eval instead of the judge when the eval names a
	// scorers: entry (resolved to its plugin at plan time); nil otherwise.
	Scorer *scorer.Scorer
}

// EvalCell is one cell of an eval's matrix: the judge model ("" keeps the
// eval's judge) and the graded prompt ("" keeps the eval's prompt).
type EvalCell struct {
	Model  string
	Prompt string
	// Label names the cell in the test name: "model=…, prompt 2".
	Label string
}

// Prompt is the prompt this row grades: the cell's, else the eval's.
func (e *Eval) Prompt() string {
	if e.Cell != nil && e.Cell.Prompt != "" {
		return e.Cell.Prompt
	}
	return e.Spec.Prompt
}

// EvalCells expands an eval's matrix into its cells, the cartesian
// product of the axes it sets (models outer, prompts inner); nil when the
// eval has no matrix.
func EvalCells(e *config.EvalTest) []*EvalCell {
	m := e.Matrix
	if m == nil || len(m.Models)+len(m.Prompts) == 0 {
		return nil
	}
	models := m.Models
	if len(models) == 0 {
		models = []string{""}
	}
	prompts := m.Prompts
	if len(prompts) == 0 {
		prompts = []string{""}
	}
	var out []*EvalCell
	for _, model := range models {
		for i, prompt := range prompts {
			c := &EvalCell{Model: model, Prompt: prompt}
			switch {
			case model != "" && prompt != "":
				c.Label = "model=" + model + ", prompt " + strconv.Itoa(i+1)
			case model != "":
				c.Label = "model=" + model
			default:
				c.Label = "prompt " + strconv.Itoa(i+1)
			}
			out = append(out, c)
		}
	}
	return out
}

// evals plans the evals of a suite (mcptest eval): one test per matrix
// cell, named for its coordinates so the rows of a matrix tell
// themselves apart.
func (b *builder) evals(s *config.Suite, names map[string]int, add func(*Test, map[string]bool)) {
	for _, e := range s.Evals {
		opts := &config.TestOptions{Tags: e.Tags, Profile: e.Profile}
		srv := s.Servers[e.Server]
		var sc *scorer.Scorer
		if e.Scorer != "" && b.sel.keeps(e.Name, e.Tags, e.Profile) {
			// An unknown scorer type fails here, before anything starts.
			var err error
			if sc, err = scorer.Resolve(b.reg, s, e.Scorer); err != nil {
				b.errs = append(b.errs, asConfigError(s, e.Pos, err))
			}
		}
		cells := EvalCells(e)
		if cells == nil {
			cells = []*EvalCell{nil}
		}
		for _, c := range cells {
			name := e.Name
			if c != nil {
				name += " [" + c.Label + "]"
			}
			t := &Test{ID: testID(s.File, "evals", name, names), Kind: KindEval, Name: name,
				Eval: &Eval{Spec: e, Cell: c, Server: srv, Scorer: sc}, Options: opts, Pos: e.Pos}
			if e.Response == nil {
				// A live run talks to the eval's server; a fixed response
				// needs none, so a key-free run starts nothing.
				t.Server = srv
			}
			add(t, nil)
		}
	}
}

// countEvals counts the selected evals `mcptest run` leaves to `mcptest
// eval` (Plan.EvalsNotRun), every matrix cell one. A plan that is not for
// a run (`mcptest validate`) also resolves their scorer types, as `mcptest
// eval` would: validate promises that everything a suite names resolves,
// while a run, which does not grade evals, leaves an unknown scorer type
// to the command that does.
func (b *builder) countEvals(s *config.Suite) {
	for _, e := range s.Evals {
		if !b.sel.keeps(e.Name, e.Tags, e.Profile) {
			continue
		}
		if !b.run && e.Scorer != "" {
			if _, err := scorer.Resolve(b.reg, s, e.Scorer); err != nil {
				b.errs = append(b.errs, asConfigError(s, e.Pos, err))
			}
		}
		n := len(EvalCells(e))
		if n == 0 {
			n = 1
		}
		b.plan.EvalsNotRun += n
	}
}

// asConfigError keeps a located error as it is and locates any other at
// pos.
func asConfigError(s *config.Suite, pos config.Pos, err error) *config.Error {
	var ce *config.Error
	if errors.As(err, &ce) {
		return ce
	}
	return &config.Error{File: s.File, Line: pos.Line, Col: pos.Col, Pointer: pos.Pointer, Msg: err.Error()}
}

// evalVersion gives a suite's evals the one protocol revision a live run
// speaks: --target-version when the suite lists it, else the suite's
// first target_versions entry. Evals are not fanned out over revisions:
// a grade does not depend on the revision, and a fixed-response eval
// talks to no server at all.
func (b *builder) evalVersion(s *config.Suite, first int) {
	if len(s.TargetVersions) == 0 {
		return
	}
	v := s.TargetVersions[0]
	if slices.Contains(s.TargetVersions, b.targetVersion) {
		v = b.targetVersion
	}
	for _, t := range b.plan.Tests[first:] {
		t.ProtocolVersion = v
	}
}
