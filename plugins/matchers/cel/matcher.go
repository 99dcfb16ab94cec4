package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/sdk"
)

// ErrEval marks an expression that failed while evaluating.
var ErrEval = errors.New("the CEL expression failed to evaluate")

// matcher serves the cel key. It implements sdk.Matcher and
// sdk.ArgumentChecker and is safe for concurrent use.
type matcher struct {
	programs *programCache
	budget   time.Duration
}

// newMatcher returns a matcher with its CEL environment, an empty cache and
// the given evaluation budget.
func newMatcher(budget time.Duration) (*matcher, error) {
	env, err := newEnv()
	if err != nil {
		return nil, err
	}
	return &matcher{programs: newProgramCache(env), budget: budget}, nil
}

// CheckArgument compiles the expression before the run, so a syntax or
// type error stops the suite before any server starts. The program stays
// cached for the run.
func (m *matcher) CheckArgument(key string, arg json.RawMessage) error {
	_, err := m.program(key, arg)
	return err
}

// Match evaluates the expression with the actual value bound to `value`.
func (m *matcher) Match(ctx context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	p, err := m.program(in.Key, in.Argument)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	v, err := decodeValue(in.Actual)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("cel: decode actual value: %w", err)
	}
	ok, err := p.eval(ctx, v, m.budget)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	if ok {
		return sdk.Pass(), nil
	}
	return sdk.Fail(falseFailure(p.expr, in.Actual)), nil
}

// program decodes the argument of key and returns its compiled program.
// Every error is a suite bug.
func (m *matcher) program(key string, arg json.RawMessage) (*program, error) {
	if key != matcherKey {
		return nil, sdk.InvalidArgument("the cel plugin has no matcher %q", key)
	}
	// Into any, not string: json.Unmarshal leaves a string empty for null.
	var v any
	if err := json.Unmarshal(arg, &v); err != nil {
		return nil, sdk.InvalidArgument("cel: the argument is not valid JSON: %w", err)
	}
	expr, ok := v.(string)
	if !ok {
		return nil, sdk.InvalidArgument("cel: the argument must be a string holding a CEL expression, got %s", jsonvalue.Describe(v))
	}
	p, err := m.programs.get(expr)
	if err != nil {
		return nil, sdk.InvalidArgument("cel: %w", err)
	}
	return p, nil
}

// eval runs the program on v within budget. It returns the boolean
// result; an evaluation error, running out of budget or a result of
// another type is a suite bug, and a cancelled ctx is returned as it is.
func (p *program) eval(ctx context.Context, v any, budget time.Duration) (bool, error) {
	evalCtx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	out, _, err := p.prg.ContextEval(evalCtx, map[string]any{valueVar: v})
	switch {
	case ctx.Err() != nil:
		// The run is stopping; that says nothing about the expression.
		return false, fmt.Errorf("cel: %w", ctx.Err())
	case err != nil && evalCtx.Err() != nil:
		return false, sdk.InvalidArgument("cel: %w: %q did not finish within %s", ErrEval, p.expr, budget)
	case err != nil:
		return false, sdk.InvalidArgument("cel: %w", p.evalError(err))
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, sdk.InvalidArgument("cel: %w: %q returned %s", ErrNotBool, p.expr, describeVal(out))
	}
	return bool(b), nil
}

// evalError explains an evaluation error, with the position of the part
// of the expression that raised it when cel-go knows it.
func (p *program) evalError(err error) error {
	var celErr *types.Err
	if errors.As(err, &celErr) && celErr.NodeID() != 0 {
		loc := p.ast.NativeRep().SourceInfo().GetStartLocation(celErr.NodeID())
		if loc.Line() > 0 {
			return fmt.Errorf("%w: %q at %s: %w", ErrEval, p.expr, position(loc), err)
		}
	}
	return fmt.Errorf("%w: %q: %w", ErrEval, p.expr, err)
}

// describeVal names a CEL value's type and shows a short rendering of it.
func describeVal(v ref.Val) string {
	if v == types.NullValue {
		return "null, not a bool"
	}
	s := fmt.Sprint(v.Value())
	if len(s) > 60 {
		s = truncateUTF8(s, 60) + "…"
	}
	if _, isString := v.(types.String); isString {
		s = strconv.Quote(s)
	}
	return fmt.Sprintf("%s (%s), not a bool", v.Type().TypeName(), s)
}
