package main

import (
	"fmt"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

// valueVar is the variable the extracted value is bound to.
const valueVar = "value"

// The evaluation limits. Suites are trusted, but responses are not: an
// ordinary expression such as `value.all(i, value.exists(j, ...))` is
// quadratic in the size of the response. CEL has no loops or recursion, so
// only comprehensions can run long, and those check for an interrupt as
// they iterate; evaluation therefore runs under a wall-clock budget.
//
// cel.CostLimit is deliberately not used: in cel-go v0.31.0 the runtime
// cost tracker it enables keeps a stack that grows with every comprehension
// step and is searched linearly, so `value.all(x, x > 0)` becomes
// quadratic (16,000 elements: 340 ms with the tracker, 3 ms without). A
// limit meant to stop pathological expressions would then stop ordinary
// ones over large responses.
const (
	// defaultBudget caps one evaluation's wall-clock time, the same budget
	// the schema matcher uses.
	defaultBudget = 2 * time.Second
	// interruptEvery is how many comprehension steps run between checks
	// of the deadline.
	interruptEvery = 100
)

// newEnv returns the CEL environment every expression compiles in.
func newEnv() (*cel.Env, error) {
	env, err := cel.NewEnv(
		cel.Variable(valueVar, cel.DynType),
		ext.Strings(),
		// JSON has one number type; the int/double split is ours, so
		// `value.ratio > 1` must not depend on how the server wrote 2.0.
		cel.CrossTypeNumericComparisons(true),
	)
	if err != nil {
		return nil, fmt.Errorf("build the CEL environment: %w", err)
	}
	return env, nil
}

// programOptions are the options of every program: interrupt checks, and
// constant folding, which also compiles a literal regex once, at compile
// time, so a bad literal pattern is reported before the run.
func programOptions() []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.InterruptCheckFrequency(interruptEvery),
		cel.EvalOptions(cel.OptOptimize),
	}
}
